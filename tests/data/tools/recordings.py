"""The generator both days' recordings share (tests/data/day3 and day4 ``tools/make_recordings.py``): an arXiv
listing of the day (the rss.arxiv.org RSS 2.0 format) and the HF daily papers of that day.

Hand-made and deterministic: each day gives its planted papers, its HF entries and its seed (``Day``); the rest
of the listing is invented filler far from LLM inference, whose coined names avoid the earlier listings'.
"""
import hashlib
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

DATA = Path(__file__).resolve().parent.parent      # tests/data
REPO = DATA.parent.parent
RIGHTS = [
    "http://creativecommons.org/licenses/by/4.0/",
    "http://creativecommons.org/licenses/by-sa/4.0/",
    "http://creativecommons.org/licenses/by-nc-nd/4.0/",
    "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
]
TASKS = [
    ("legged robot locomotion", ["cs.RO", "cs.LG"], "terrain-aware domain randomization", "simulated quadruped courses"),
    ("grammatical error correction", ["cs.CL"], "minimal-edit constrained generation", "BEA-2019 and CoNLL-2014"),
    ("protein structure refinement", ["q-bio.BM", "cs.LG"], "equivariant denoising", "CASP targets"),
    ("Byzantine consensus in permissioned ledgers", ["cs.DC", "cs.CR"], "pipelined view changes", "geo-distributed testbeds"),
    ("multi-view 3D reconstruction", ["cs.CV"], "uncertainty-aware depth fusion", "DTU and Tanks and Temples"),
    ("time-series anomaly detection", ["cs.LG"], "contrastive seasonal decomposition", "industrial sensor datasets"),
    ("cross-lingual named entity recognition", ["cs.CL"], "label projection with word alignment", "WikiANN"),
    ("tabular data synthesis", ["cs.LG", "cs.DB"], "copula-guided diffusion", "public tabular benchmarks"),
    ("medical image segmentation", ["eess.IV", "cs.CV"], "boundary-aware contrastive pretraining", "abdominal CT datasets"),
    ("code clone detection", ["cs.SE"], "graph matching over program dependence graphs", "BigCloneBench"),
    ("lock-free concurrent hash tables", ["cs.DC", "cs.DS"], "epoch-based memory reclamation", "microbenchmarks on many-core servers"),
    ("register allocation in JIT compilers", ["cs.PL"], "linear-scan allocation with live-range splitting", "JavaScript workloads"),
    ("file system crash consistency", ["cs.OS"], "model checking of journaling protocols", "ext4 and btrfs"),
    ("formal verification of out-of-order pipelines", ["cs.AR", "cs.LO"], "refinement proofs with ghost state", "RISC-V cores"),
    ("sentiment analysis of code-mixed text", ["cs.CL"], "transliteration-aware tokenization", "Hinglish and Spanglish corpora"),
    ("music source separation", ["eess.AS", "cs.SD"], "band-split transformers", "MUSDB18"),
    ("precipitation nowcasting from radar", ["physics.ao-ph", "cs.LG"], "conditional flow matching", "regional radar archives"),
    ("molecular property prediction", ["cs.LG", "q-bio.QM"], "substructure-aware pretraining", "MoleculeNet"),
    ("point cloud completion", ["cs.CV"], "skeleton-guided upsampling", "ShapeNet and KITTI"),
    ("video object segmentation", ["cs.CV"], "memory-efficient space-time matching", "DAVIS and YouTube-VOS"),
    ("traffic forecasting on road graphs", ["cs.LG"], "adaptive graph wavelets", "PEMS datasets"),
    ("stencil computations on multicore CPUs", ["cs.DC", "cs.PF"], "temporal blocking with auto-tuned tiles", "standard stencil suites"),
    ("erasure coding for geo-distributed storage", ["cs.DC"], "locality-aware repair", "a multi-region deployment"),
    ("collaborative editing with CRDTs", ["cs.DC"], "compact causal metadata", "editing traces"),
    ("performance variability of cloud virtual machines", ["cs.PF"], "change-point detection on repeated runs", "three public clouds"),
    ("compiler flag tuning", ["cs.PF", "cs.SE"], "Bayesian optimization with transfer priors", "SPEC CPU 2017"),
    ("low-resource machine translation", ["cs.CL"], "iterative back-translation with quality filters", "FLORES-200"),
    ("hate speech detection", ["cs.CL"], "target-aware data augmentation", "multilingual social media corpora"),
    ("knowledge graph completion", ["cs.LG", "cs.AI"], "relation-aware rotation embeddings", "FB15k-237 and WN18RR"),
    ("image super-resolution", ["cs.CV", "eess.IV"], "frequency-separated attention-free networks", "DIV2K"),
    ("few-shot object detection", ["cs.CV"], "prototype calibration", "PASCAL VOC and COCO"),
    ("climate model downscaling", ["cs.LG", "physics.ao-ph"], "physics-constrained super-resolution", "reanalysis data"),
    ("post-silicon validation of vector units", ["cs.AR"], "coverage-directed test generation", "a RISC-V vector core"),
    ("legal document summarization", ["cs.CL"], "discourse-aware extractive planning", "court judgment corpora"),
    ("optical flow estimation", ["cs.CV"], "recurrent all-pairs refinement with occlusion masks", "Sintel and KITTI"),
    ("graph partitioning", ["cs.DS", "cs.DC"], "multilevel refinement with label propagation", "large web graphs"),
]
PREFIX = ["Vela", "Cedar", "Corvo", "Halo", "Nimbus", "Aster", "Birch", "Coral", "Ember", "Fjord", "Garnet", "Heron",
          "Iris", "Juniper", "Kestrel", "Lumen", "Maple", "Onyx", "Quartz", "Raven", "Sable", "Tundra", "Umber", "Vireo",
          "Willow", "Yarrow", "Zephyr", "Alder", "Basalt", "Cobalt"]
SUFFIX = ["Net", "Shift", "Forge", "Sync", "Dex", "Scope", "Graph", "Mix", "Span", "Mark"]
OPENERS = [
    "Progress in {t} is limited because existing methods do not transfer across settings.",
    "A central obstacle in {t} is that labelled data are scarce.",
    "{T} remains difficult because errors compound over long horizons.",
    "Existing approaches to {t} trade accuracy for robustness.",
]
FIRST = ["Ava", "Ben", "Chiara", "Dmitri", "Elif", "Farah", "Gabriel", "Hana", "Ilya", "Jana", "Karim", "Lina", "Mateo",
         "Nora", "Omar", "Paula", "Quinn", "Rosa", "Sanjay", "Tara", "Umar", "Vera", "Wen", "Xavier", "Yara", "Zoe"]
LAST = ["Garcia", "Kim", "Novak", "Okafor", "Park", "Quinn", "Rahman", "Schmidt", "Tran", "Varga", "Weber", "Zhou",
        "Jensen", "Moreau", "Ortiz", "Iyer", "Fontaine", "Grant", "Lindqvist", "Adachi"]

SMALL = {"for", "of", "with", "and", "on", "in", "from", "over", "to", "a"}


@dataclass(frozen=True)
class Day:
    """What one day's recordings are made of.

    ``planted``: (id, version, announce type, categories, title, abstract, authors); ``hf``: (id, upvotes,
    submittedOnDailyAt, ai_summary, keywords, github). ``reserved``/``reserved_prefixes``: IDs no filler may take;
    ``taken_names``: coined names no filler may take, besides the earlier listings' (the sample day's and those of
    days 2 to ``number`` − 1, ``earlier``); ``ids``: the range of the fillers' ID numbers."""

    number: int
    date: str                    # 2026-10-12
    pub: str                     # the listing's pubDate: "Mon, 12 Oct 2026 00:00:00 -0400"
    last_build: str              # its lastBuildDate
    seed: int
    planted: list
    reserved: set
    reserved_prefixes: tuple
    taken_names: set
    ids: tuple
    hf: list
    hf_published: tuple          # (the paper's publishedAt, the daily entry's publishedAt)
    prefixes: tuple = ()         # coined-name prefixes besides PREFIX

    @property
    def here(self) -> Path:
        return DATA / f"day{self.number}"

    @property
    def earlier(self) -> list[Path]:
        """The listings of the labelled days before this one (days 2 to ``number`` − 1)."""
        return sorted(p for n in range(2, self.number)
                      for p in (DATA / f"day{n}" / "workspace" / "recordings" / "arxiv").glob("*-listing.xml"))


def tc(s):
    words = s.split()
    return " ".join(w if (w in SMALL and k) or w[:1].isupper() else w[:1].upper() + w[1:] for k, w in enumerate(words))


def earlier_names(day):
    """Coined names of the earlier listings: a filler must not reuse one."""
    names = set()
    for f in [REPO / "data/sample/recordings/arxiv/2026-10-08-listing.xml", *day.earlier]:
        if f.exists():
            names |= set(re.findall(r"<title>([A-Za-z0-9+-]+):", f.read_text(encoding="utf-8")))
    return names


def fillers(rng, day):
    items = []
    used = set(day.reserved)
    names = earlier_names(day) | day.taken_names
    prefixes = PREFIX + list(day.prefixes)
    ids = []
    while len(ids) < 74:
        n = rng.randint(*day.ids)
        i = f"2610.{n}"
        if i in used or i.startswith(day.reserved_prefixes):
            continue
        used.add(i)
        ids.append(i)
    ids.sort()
    for k, i in enumerate(ids):
        t, cats, method, data = TASKS[k % len(TASKS)]
        while True:
            name = rng.choice(prefixes) + rng.choice(SUFFIX)
            if name not in names:
                names.add(name)
                break
        style = rng.random()
        if style < 0.5:
            title = f"{name}: {tc(method)} for {tc(t)}"
        else:
            title = f"{name}: Towards Reliable {tc(t)}"
        opener = rng.choice(OPENERS).format(t=t, T=t[0].upper() + t[1:])
        abstract = (f"{opener} We introduce {method} and give a simple analysis of why it works. "
                    f"Experiments on {data} show consistent gains over strong baselines.")
        kind = "cross" if k % 9 == 4 else "new"
        authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(2, 5))]
        items.append((i, 1, kind, cats if kind == "new" else list(reversed(cats)) if len(cats) > 1 else cats + ["cs.LG"],
                      title, abstract, authors))
    # replacements of older, unrelated papers
    for j in range(8):
        t, cats, method, data = TASKS[(j * 5 + 3) % len(TASKS)]
        old = f"26{rng.choice(['07', '08', '09'])}.{rng.randint(10000, 29999)}"
        name = rng.choice(prefixes) + rng.choice(SUFFIX)
        while name in names:
            name = rng.choice(prefixes) + rng.choice(SUFFIX)
        names.add(name)
        title = f"{name}: Towards Reliable {tc(t)}"
        abstract = (f"{rng.choice(OPENERS).format(t=t, T=t[0].upper() + t[1:])} We show that {method} addresses this problem. "
                    "This version fixes an error in the appendix and adds an ablation.")
        authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(2, 4))]
        items.append((old, 2, "replace" if j % 3 else "replace-cross", cats, title, abstract, authors))
    return items


def item_xml(rng, it, pub):
    i, v, kind, cats, title, abstract, authors = it
    return f"""    <item>
      <title>{escape(title)}</title>
      <link>https://arxiv.org/abs/{i}</link>
      <description>arXiv:{i}v{v} Announce Type: {kind}\x20
Abstract: {escape(abstract)}</description>
      <guid isPermaLink="false">oai:arXiv.org:{i}v{v}</guid>
""" + "".join(f"      <category>{c}</category>\n" for c in cats) + f"""      <pubDate>{pub}</pubDate>
      <arxiv:announce_type>{kind}</arxiv:announce_type>
      <dc:rights>{rng.choice(RIGHTS)}</dc:rights>
      <dc:creator>{escape(", ".join(authors))}</dc:creator>
    </item>
"""


def write_listing(day, root=None):
    rng = random.Random(day.seed)
    items = day.planted + fillers(rng, day)
    order = {"new": 0, "cross": 1, "replace": 2, "replace-cross": 3}
    items.sort(key=lambda it: (order[it[2]], it[0]))
    listed = day.pub.split(" 00:00:00")[0]      # "Mon, 12 Oct 2026"
    head = f"""<?xml version='1.0' encoding='UTF-8'?>
<!-- kb day-{day.number} sample workspace: a hand-made recording in the rss.arxiv.org (2024+) RSS 2.0 format for the listing of
     {listed}. Not a real arXiv response: titles, abstracts and authors are invented (tests/data/day{day.number}/tools/make_recordings.py). -->
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">
  <channel>
    <title>cs.DC, cs.LG, cs.CL, cs.AR, cs.PF, cs.OS updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.DC+cs.LG+cs.CL+cs.AR+cs.PF+cs.OS</link>
    <description>cs.DC, cs.LG, cs.CL, cs.AR, cs.PF, cs.OS updates on the arXiv.org e-print archive.</description>
    <atom:link href="http://rss.arxiv.org/rss/cs.DC+cs.LG+cs.CL+cs.AR+cs.PF+cs.OS" rel="self" type="application/rss+xml"/>
    <docs>http://www.rssboard.org/rss-specification</docs>
    <language>en-us</language>
    <lastBuildDate>{day.last_build}</lastBuildDate>
    <managingEditor>rss-help@arxiv.org</managingEditor>
    <pubDate>{day.pub}</pubDate>
    <skipDays>
      <day>Sunday</day>
      <day>Saturday</day>
    </skipDays>
"""
    body = "".join(item_xml(rng, it, day.pub) for it in items)
    out = (root or day.here) / f"workspace/recordings/arxiv/{day.date}-listing.xml"
    out.write_text(head + body + "  </channel>\n</rss>\n", encoding="utf-8")
    return {it[0]: it for it in items}


def hexid(s, n=24):
    return hashlib.sha1(s.encode()).hexdigest()[:n]


def write_hf(day, papers, root=None):
    out = []
    for pid, up, daily, ai, kw, gh in day.hf:
        _, _, _, _, title, abstract, authors = papers[pid]
        sub = authors[0]
        user = sub.lower().replace(" ", "-")
        uid = hexid(pid + "user")
        paper = {
            "id": pid,
            "authors": [{"_id": hexid(pid + a), "name": a, "hidden": False} for a in authors],
            "publishedAt": day.hf_published[0],
            "submittedOnDailyAt": daily,
            "title": title,
            "submittedOnDailyBy": {
                "_id": uid,
                "avatarUrl": f"https://cdn-avatars.huggingface.co/v1/production/uploads/{uid}/{hexid(pid, 21)}.png",
                "isPro": False, "fullname": sub, "user": user, "type": "user", "name": user,
            },
            "summary": abstract,
            "upvotes": up,
            "discussionId": hexid(pid + "disc"),
            "ai_summary": ai,
            "ai_keywords": kw,
            "ai_summary_model": "thinkingmachines/Inkling-Small",
        }
        if gh:
            paper.update({"githubRepo": gh, "githubRepoAddedBy": "user", "githubStars": 40 + up * 3})
        out.append({
            "paper": paper,
            "publishedAt": day.hf_published[1],
            "title": title,
            "summary": abstract,
            "thumbnail": f"https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/{pid}.png",
            "numComments": up // 7,
            "submittedBy": {
                "_id": uid,
                "avatarUrl": f"https://cdn-avatars.huggingface.co/v1/production/uploads/{uid}/{hexid(pid, 21)}.png",
                "isPro": False, "fullname": sub, "type": "user", "name": user,
                "isHf": False, "isHfAdmin": False, "isMod": False, "followerCount": 20 + up, "isUserFollowing": False,
            },
            "isAuthorParticipating": up > 15,
        })
    out_hf = (root or day.here) / f"workspace/recordings/hf/daily_papers_{day.date}.json"
    out_hf.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")



def write_day(day, root=None):
    """Write the day's listing and HF daily papers under ``root`` (default: the day's folder, where the tests
    read them); say how many items each holds."""
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")
