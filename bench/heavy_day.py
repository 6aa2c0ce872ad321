"""One deterministic heavy day as a workspace laid out like ``data/sample`` (see ``bench/nightly.py``).

``generate(ws, seed, day, sizes)`` writes the kb.toml, the recordings (arXiv listing, HF, feeds), the
team's notes, cards, queue and the inference doc, every record and file from one seeded RNG.
"""
from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from heavy_day_pools import (  # bench/heavy_day_pools.py: what the generator draws from
    ADJ,
    AUTHORS,
    BASELINES,
    CLOSINGS,
    FEEDS,
    FIRST,
    GENERIC_DETAILS,
    GENERIC_LIMITS,
    HARDWARE,
    INF_DETAILS,
    INF_METRICS,
    INF_TARGETS,
    INFERENCE,
    LAST,
    MODELS,
    NAME_A,
    NAME_B,
    OTHER,
    OTHER_ADJ,
    OTHER_ZH,
    SECTION_PROFILES,
    SECTIONS,
    SYLL,
    ZH_JUDGE_INF,
    ZH_JUDGE_OTHER,
    ZH_RESULT,
)


class Day:
    """One deterministic heavy day: every record, then every file, from one seeded RNG."""

    def __init__(self, seed: int, day: date, n: dict[str, int]) -> None:
        self.rnd = random.Random(seed)
        self.day, self.n = day, n
        self.used_ids: set[str] = set()
        self.used_names: set[str] = set()

    # ----------------------------------------------------------------- small helpers
    def pick(self, seq):
        return self.rnd.choice(seq)

    def name(self) -> str:
        """A system's name: CamelCase of a known word or a made-up one, never used twice."""
        while True:
            r = self.rnd
            head = self.pick(NAME_A) if r.random() < 0.4 else \
                "".join(self.pick(SYLL) for _ in range(r.randint(2, 3))).capitalize()
            n = head + (self.pick(NAME_B) if r.random() < 0.7 else "")
            if n not in self.used_names and len(n) > 3:
                self.used_names.add(n)
                return n

    def new_id(self, yymm: str | None = None) -> str:
        while True:
            ym = yymm or f"{self.rnd.randint(23, 26):02d}{self.rnd.randint(1, 12):02d}"
            if ym > "2609" and yymm is None:
                continue
            aid = f"{ym}.{self.rnd.randint(100, 12999 if ym == '2610' else 34999):05d}"
            if aid not in self.used_ids:
                self.used_ids.add(aid)
                return aid

    def authors(self, lo: int = 2, hi: int = 9) -> list[str]:
        return [f"{self.pick(FIRST)} {self.pick(LAST)}" for _ in range(self.rnd.randint(lo, hi))]

    def when(self, back_min: int, back_max: int) -> date:
        return self.day - timedelta(days=self.rnd.randint(back_min, back_max))

    # ----------------------------------------------------------------- papers
    def inference_paper(self, prof=None) -> dict:
        r = self.rnd
        slug, sec, nouns, zh, problems, methods = prof or self.pick(INFERENCE)
        name, noun = self.name(), self.pick(nouns)
        target = self.pick(INF_TARGETS)
        if r.random() < 0.75:
            title = f"{name}: {self.pick(ADJ)} {noun} for {target}"
        else:
            title = self.pick([f"Revisiting {noun} for {target}", f"Understanding {noun} in Production LLM Serving",
                               f"Towards {self.pick(ADJ)} {noun} at Scale"])
            name = noun
        problem, method = self.pick(problems), self.pick(methods)
        m1, m2 = r.sample(INF_METRICS, 2)
        x, p = round(r.uniform(1.2, 4.8), 2), r.randint(12, 68)
        sents = [self.pick([f"Large language models are increasingly served at scale, where {problem}.",
                            f"A central obstacle in {noun.lower()} is that {problem}.",
                            f"Progress in {noun.lower()} is limited because {problem}.",
                            f"{problem[0].upper() + problem[1:]}."]),
                 self.pick(GENERIC_LIMITS),
                 self.pick([f"We present {name}, a system that {method}.", f"We introduce {name}, which {method}.",
                            f"This paper proposes {name}: it {method}."]),
                 *r.sample(INF_DETAILS, r.randint(2, 4)), *r.sample(GENERIC_DETAILS, r.randint(1, 2)),
                 f"{name} also {self.pick([m for m in methods if m != method] or methods)}.",
                 (f"On {self.pick(HARDWARE)} with {self.pick(MODELS)}, {name} improves {m1} by {x}x over "
                 f"{self.pick(BASELINES)} and reduces {m2} by {p}% at the same SLO."),
                 self.pick(CLOSINGS).format(org=name.lower() + "-lab", repo=name.lower())]
        cats = [self.pick(["cs.DC", "cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"])]
        cats += [c for c in r.sample(["cs.LG", "cs.DC", "cs.AI", "cs.PF", "cs.AR"], r.randint(0, 2)) if c not in cats]
        return {"title": title, "abstract": " ".join(s for s in sents if s), "cats": cats, "kind": "inf",
                "slug": slug, "section": sec, "name": name, "zh": zh, "x": x, "p": p, "metric": m1,
                "method": method}

    def other_paper(self) -> dict:
        r = self.rnd
        field, cats, nouns, problems, methods, evals, metrics = self.pick(OTHER)
        name, noun = self.name(), self.pick(nouns)
        problem, method, ev, metric = self.pick(problems), self.pick(methods), self.pick(evals), self.pick(metrics)
        if r.random() < 0.6:
            title = (f"{name}: {self.pick(OTHER_ADJ)} {noun} "
                     + self.pick(["at Scale", "with Verifiers", "from Weak Supervision", "under Distribution Shift",
                                  "without Labels", "in the Wild", "with Learned Priors", "for Long Horizons"]))
        else:
            title = (f"{self.pick(['Scaling', 'Rethinking', 'Revisiting', 'Improving', 'On'])} {noun} via "
                     + self.pick(["Conservative Penalties", "Learned Priors", "Adaptive Sampling", "Verifiers",
                                  "Memory", "Curricula", "Contrastive Objectives"]))
        p = round(r.uniform(2, 25), 1)
        sents = [self.pick([f"A central obstacle in {noun.lower()} is that {problem}.",
                            f"Progress in {noun.lower()} is limited because {problem}.",
                            f"{problem[0].upper() + problem[1:]}, which limits {noun.lower()} in practice."]),
                 self.pick([f"We present {name}, which {method}.", (f"We show that a method that {method} addresses "
                            "this problem and analyze its failure modes."), f"We study an approach that {method}."]),
                 self.pick(GENERIC_LIMITS),
                 *r.sample(GENERIC_DETAILS, r.randint(4, 6)),
                 f"{ev}, {name} improves {metric} by {p}% over strong baselines"
                 + self.pick([".", " at 5x lower cost.", " while using half the compute."]),
                 self.pick(CLOSINGS).format(org=name.lower(), repo=name.lower())]
        cc = list(cats)
        r.shuffle(cc)
        return {"title": title, "abstract": " ".join(s for s in sents if s), "cats": cc[:r.randint(1, len(cc))],
                "kind": "other", "slug": field, "section": None, "name": name, "zh": OTHER_ZH[field], "x": None,
                "p": p, "metric": metric, "method": method}

    def paper(self, inf_share: float = 0.25) -> dict:
        return self.inference_paper() if self.rnd.random() < inf_share else self.other_paper()

    # ----------------------------------------------------------------- the whole day
    def build(self) -> None:
        r, n = self.rnd, self.n
        # knowledge doc anchors first: older papers, some of them replaced in today's listing
        self.anchors: list[dict] = []
        weights = [(s, w) for s, _, _, w in SECTIONS if w]
        total_w = sum(w for _, w in weights)
        for sec, w in weights:
            k = max(1, round(n["anchors"] * w / total_w))
            for _ in range(k):
                prof = self.pick(SECTION_PROFILES.get(sec) or INFERENCE)
                p = self.inference_paper(prof)
                p["id"] = self.new_id()
                p["section"] = sec
                back = r.choice([1, 1, 2, 5, 9, 14, 30, 45, 60, 90, 120])
                p["anchored_on"] = None if r.random() < 0.08 else (self.day - timedelta(days=back)).isoformat()
                p["url_only"] = r.random() < 0.07
                self.anchors.append(p)
        self.anchors = self.anchors[:n["anchors"]]
        while len(self.anchors) < n["anchors"]:
            p = self.inference_paper(SECTION_PROFILES["§2.1"][0])
            p.update(id=self.new_id(), section="§2.1", anchored_on=None, url_only=False)
            self.anchors.append(p)
        # the listing: 56% new, 17% cross, 21% replace, 6% replace-cross
        self.listing: list[dict] = []
        anchored_ids = [a for a in self.anchors if not a["url_only"]]
        replaced_anchors = r.sample(anchored_ids, min(25, len(anchored_ids)))
        for _i in range(n["arxiv"]):
            u = r.random()
            kind = "new" if u < 0.56 else "cross" if u < 0.73 else "replace" if u < 0.94 else "replace-cross"
            if kind == "replace" and replaced_anchors and r.random() < 0.12:
                p = dict(replaced_anchors.pop())
                p["version"] = r.randint(2, 4)
            else:
                p = self.paper(0.12 if kind in ("new", "cross") else 0.08)
                if kind in ("new", "cross"):
                    p["id"], p["version"] = self.new_id("2610"), 1
                elif r.random() < 0.01:
                    p["id"], p["version"] = f"cs/{r.randint(0, 7):02d}{r.randint(1, 12):02d}{r.randint(1, 999):03d}", 3
                else:
                    p["id"], p["version"] = self.new_id(), r.randint(2, 5)
            p["announce"] = kind
            p["authors"] = self.authors()
            self.listing.append(p)
        new_items = [p for p in self.listing if p["announce"] == "new"]
        # HF: most are in today's listing, the rest in other categories
        self.hf: list[dict] = []
        hf_from_listing = r.sample(new_items, min(len(new_items), int(n["hf"] * 0.7)))
        for p in hf_from_listing:
            self.hf.append(dict(p))
        while len(self.hf) < n["hf"]:
            p = self.other_paper() if r.random() < 0.7 else self.inference_paper()
            p["id"], p["version"], p["authors"] = self.new_id("2610"), 1, self.authors()
            self.hf.append(p)
        r.shuffle(self.hf)
        ups = sorted((int(r.paretovariate(1.3) * 4) for _ in self.hf), reverse=True)
        for p, u in zip(self.hf, ups):
            p["upvotes"] = min(u, 400)
        # feeds
        self.posts: dict[str, list[dict]] = {}
        cite_pool = [p for p in new_items if p["kind"] == "inf"] + anchored_ids[:80]
        for name, _url, _cred, _topics, _fmt, focus in FEEDS[:n["feeds"]]:
            d = self.day - timedelta(days=r.choice([0, 0, 0, 1, 1, 2, 6, 20]))
            posts = []
            for _k in range(n["items"]):
                inf = focus == "inf" and r.random() < 0.85 or focus == "mix" and r.random() < 0.45 \
                    or focus == "other" and r.random() < 0.1
                p = self.inference_paper() if inf else self.other_paper()
                p["date"] = d
                p["cites"] = r.sample(cite_pool, r.randint(1, 2)) if inf and r.random() < 0.4 else []
                p["slug_url"] = "-".join(p["title"].lower().replace(":", "").split()[:6])
                p["post_author"] = self.pick([f"{name} team", f"{self.pick(FIRST)} {self.pick(LAST)}"])
                posts.append(p)
                d -= timedelta(days=r.randint(1, 6))
            self.posts[name] = posts
        # cards: papers noticed in the last days (the listing and HF)
        card_src = r.sample(new_items + self.hf, min(n["cards"], len(new_items) + len(self.hf)))
        self.cards = []
        for i, p in enumerate(card_src):
            if p["id"] in {c["id"] for c in self.cards}:
                continue
            self.cards.append(dict(p, number=400 + i, created=self.when(0, 3),
                                   source=self.pick(["hf-daily", "arxiv", "manual", "blog"])))
        self.queue = r.sample(self.cards, min(n["queue"] - 2, len(self.cards)))

    # ----------------------------------------------------------------- files
    def write(self, ws: Path) -> dict[str, int]:
        d = self.day.isoformat()
        for sub in ("recordings/arxiv", "recordings/hf", "recordings/blogs", "organized/knowledge",
                    "organized/paper_cards", "organized/queue", "inbox"):
            (ws / sub).mkdir(parents=True, exist_ok=True)
        (ws / "kb.toml").write_text(self.kb_toml(), encoding="utf-8")
        (ws / f"recordings/arxiv/{d}-listing.xml").write_text(self.listing_xml(), encoding="utf-8")
        (ws / f"recordings/hf/daily_papers_{d}.json").write_text(self.hf_json(), encoding="utf-8")
        for feed in FEEDS[:self.n["feeds"]]:
            (ws / f"recordings/blogs/{feed[0]}.xml").write_text(self.feed_xml(feed), encoding="utf-8")
        (ws / "organized/knowledge/inference.md").write_text(self.knowledge_md(), encoding="utf-8")
        for c in self.cards:
            yymm, num = c["id"].split(".")
            (ws / f"organized/paper_cards/{c['number']}-{yymm}-{num}.md").write_text(self.card_md(c), encoding="utf-8")
        (ws / "organized/queue/work-queue.md").write_text(self.queue_md(), encoding="utf-8")
        for rel, text in self.notes():
            (ws / rel).parent.mkdir(parents=True, exist_ok=True)
            (ws / rel).write_text(text, encoding="utf-8")
        return {"listing": len(self.listing), "hf": len(self.hf), "posts": sum(len(v) for v in self.posts.values()),
                "notes": self.n["notes"], "anchors": len(self.anchors), "cards": len(self.cards),
                "queue": len(self.queue) + 2}

    def kb_toml(self) -> str:
        out = ['# kb.toml — generated by bench/nightly.py: one heavy offline day.',
               '[workspace]', 'timezone = "Asia/Shanghai"', 'languages = ["zh", "en"]',
               'contact = "kb-bench@example.org"', '', '[[topics]]', 'slug = "inference"',
               'doc = "organized/knowledge/inference.md"', '', '[arxiv]',
               'categories = ["cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"]',
               'recording = "recordings/arxiv/{date}-listing.xml"', '', '[hf]', 'credibility = 3',
               'recording = "recordings/hf/daily_papers_{date}.json"', '']
        for name, url, cred, topics, _, _ in FEEDS[:self.n["feeds"]]:
            out += ["[[blogs]]", f'name = "{name}"', f'url = "{url}"', f"credibility = {cred}",
                    "topics = [" + ", ".join(f'"{t}"' for t in topics) + "]",
                    f'recording = "recordings/blogs/{name}.xml"', ""]
        out += ["[authors]"] + [f"{a} = {c}" for a, c in AUTHORS.items()] + ["", "[briefing]", "top = 5", ""]
        return "\n".join(out)

    def listing_xml(self) -> str:
        cats = "cs.DC, cs.LG, cs.CL, cs.AR, cs.PF, cs.OS"
        plus = "cs.DC+cs.LG+cs.CL+cs.AR+cs.PF+cs.OS"
        wd = self.day.strftime("%a, %d %b %Y")
        parts = ["<?xml version='1.0' encoding='UTF-8'?>\n",
                 ('<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" '
                 'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
                 'version="2.0">\n  <channel>\n'),
                 (f"    <title>{cats} updates on arXiv.org</title>\n    <link>http://rss.arxiv.org/rss/{plus}</link>\n"
                 f"    <description>{cats} updates on the arXiv.org e-print archive.</description>\n"
                 f'    <atom:link href="http://rss.arxiv.org/rss/{plus}" rel="self" type="application/rss+xml"/>\n'
                 "    <docs>http://www.rssboard.org/rss-specification</docs>\n    <language>en-us</language>\n"
                 f"    <lastBuildDate>{wd} 04:01:17 +0000</lastBuildDate>\n"
                 "    <managingEditor>rss-help@arxiv.org</managingEditor>\n"
                 f"    <pubDate>{wd} 00:00:00 -0400</pubDate>\n"
                 "    <skipDays>\n      <day>Sunday</day>\n      <day>Saturday</day>\n    </skipDays>\n")]
        lic = ["http://creativecommons.org/licenses/by/4.0/", "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
               "http://creativecommons.org/licenses/by-nc-nd/4.0/", "http://creativecommons.org/licenses/by-sa/4.0/"]
        for i, p in enumerate(self.listing):
            vid = f"{p['id']}v{p['version']}"
            parts.append(
                "    <item>\n"
                f"      <title>{escape(p['title'])}</title>\n"
                f"      <link>https://arxiv.org/abs/{p['id']}</link>\n"
                f"      <description>arXiv:{vid} Announce Type: {p['announce']} \nAbstract: {escape(p['abstract'])}"
                "</description>\n"
                f'      <guid isPermaLink="false">oai:arXiv.org:{vid}</guid>\n'
                + "".join(f"      <category>{c}</category>\n" for c in p["cats"])
                + f"      <pubDate>{wd} 00:00:00 -0400</pubDate>\n"
                f"      <arxiv:announce_type>{p['announce']}</arxiv:announce_type>\n"
                f"      <dc:rights>{lic[i % len(lic)]}</dc:rights>\n"
                f"      <dc:creator>{escape(', '.join(p['authors']))}</dc:creator>\n"
                "    </item>\n")
        parts.append("  </channel>\n</rss>\n")
        return "".join(parts)

    def hf_json(self) -> str:
        r = self.rnd
        items = []
        for p in self.hf:
            def hexid():
                return f"{r.getrandbits(96):024x}"
            org = p["name"].lower() + "-lab"
            sub = {"_id": hexid(), "avatarUrl": f"https://cdn-avatars.huggingface.co/v1/production/uploads/{hexid()}/a.png",
                   "fullname": self.pick(["AK", "Tom", "AgentLab", "Niels", "Kye"]), "name": self.pick(["akhaliq", "nielsr", "kye"]),
                   "type": "user", "isPro": r.random() < 0.5}
            paper = {"id": p["id"], "authors": [{"_id": hexid(), "name": a, "hidden": False} for a in p["authors"]],
                     "publishedAt": f"{(self.day - timedelta(days=1)).isoformat()}T00:00:00.000Z",
                     "submittedOnDailyAt": f"{self.day.isoformat()}T00:00:00.000Z", "title": p["title"],
                     "submittedOnDailyBy": sub, "summary": p["abstract"], "upvotes": p["upvotes"],
                     "discussionId": hexid(), "githubRepo": f"https://github.com/{org}/{p['name'].lower()}",
                     "githubRepoAddedBy": "user", "ai_summary": p["abstract"].split(". ")[0] + ".",
                     "ai_keywords": [w for w in p["title"].lower().replace(":", "").split() if len(w) > 5][:6],
                     "ai_summary_model": "thinkingmachines/Inkling-Small", "githubStars": r.randint(0, 900)}
            items.append({"paper": paper, "publishedAt": f"{(self.day - timedelta(days=2)).isoformat()}T20:00:00.000Z",
                          "title": p["title"], "summary": p["abstract"],
                          "thumbnail": f"https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/{p['id']}.png",
                          "numComments": r.randint(0, 12), "submittedBy": dict(sub, followerCount=r.randint(0, 900)),
                          "isAuthorParticipating": r.random() < 0.4})
        return json.dumps(items, ensure_ascii=False, indent=2) + "\n"

    def post_html(self, p: dict) -> str:
        r = self.rnd
        paras = [p["abstract"].split(". ")[0] + "."]
        rest = p["abstract"].split(". ")[1:]
        paras.append(". ".join(rest[:3]).rstrip(".") + ".")
        if p["cites"]:
            links = ", ".join(f'&lt;a href="https://arxiv.org/abs/{c["id"]}"&gt;{escape(c["name"])}&lt;/a&gt; '
                              f"(arXiv:{c['id']})" for c in p["cites"])
            paras.append(f"This work builds on {links}, which we integrated in the last release.")
        bullets = [f"{self.pick(INF_METRICS)} improves {round(r.uniform(1.1, 3.9), 2)}x on {self.pick(HARDWARE)} "
                   f"with {self.pick(MODELS)}." for _ in range(r.randint(2, 4))]
        paras += [". ".join(rest[3:]) or "More details are in the documentation.",
                  "We thank the community for early feedback and bug reports."]
        html = "".join(f"&lt;p&gt;{escape(s) if '&lt;a' not in s else s}&lt;/p&gt;\n" for s in paras[:2])
        html += "".join(f"&lt;p&gt;{s}&lt;/p&gt;\n" for s in paras[2:3] if p["cites"])
        html += "&lt;ul&gt;" + "".join(f"&lt;li&gt;{escape(b)}&lt;/li&gt;" for b in bullets) + "&lt;/ul&gt;\n"
        html += "".join(f"&lt;p&gt;{escape(s)}&lt;/p&gt;\n" for s in paras[-2:])
        return html

    def feed_xml(self, feed) -> str:
        name, url, _, _, fmt, _ = feed
        site = url.rsplit("/", 1)[0]
        posts = self.posts[name]
        if fmt == "atom":
            out = ['<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n',
                   '  <generator uri="https://jekyllrb.com/" version="4.3.4">Jekyll</generator>\n',
                   f'  <link href="{url}" rel="self" type="application/atom+xml" />\n',
                   f'  <link href="{site}/" rel="alternate" type="text/html" />\n',
                   f"  <updated>{posts[0]['date'].isoformat()}T18:12:40+08:00</updated>\n  <id>{url}</id>\n",
                   f'  <title type="html">{name} blog</title>\n  <subtitle>Posts from {name}</subtitle>\n']
            for p in posts:
                link = f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html"
                out.append(
                    f'  <entry>\n    <title type="html">{escape(p["title"])}</title>\n'
                    f'    <link href="{link}" rel="alternate" type="text/html" title={quoteattr(p["title"])} />\n'
                    f"    <published>{p['date'].isoformat()}T00:00:00+00:00</published>\n"
                    f"    <updated>{p['date'].isoformat()}T00:00:00+00:00</updated>\n"
                    f"    <id>{link[:-5]}</id>\n"
                    f'    <content type="html" xml:base="{link}">{self.post_html(p)}</content>\n'
                    f"    <author>\n        <name>{escape(p['post_author'])}</name>\n    </author>\n"
                    f'    <category term="{p["slug"]}" />\n'
                    f'    <summary type="html">{escape(p["abstract"].split(". ")[0])}</summary>\n  </entry>\n')
            out.append("</feed>\n")
        else:
            out = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n',
                   f"  <channel>\n    <title>{name} blog</title>\n    <description>Posts from {name}</description>\n",
                   f"    <link>{site}/</link>\n",
                   f'    <atom:link href="{url}" rel="self" type="application/rss+xml" />\n',
                   f"    <lastBuildDate>{posts[0]['date'].strftime('%a, %d %b %Y')} 18:40:11 -0400</lastBuildDate>\n"]
            for p in posts:
                link = f"{site}/{p['date'].isoformat()}-{p['slug_url']}/"
                out.append(
                    f"    <item>\n      <title>{escape(p['title'])}</title>\n      <link>{link}</link>\n"
                    f"      <pubDate>{p['date'].strftime('%a, %d %b %Y')} 09:00:00 -0400</pubDate>\n"
                    f'      <guid isPermaLink="true">{link}</guid>\n'
                    f"      <description>{self.post_html(p)}</description>\n    </item>\n")
            out.append("  </channel>\n</rss>\n")
        return "".join(out)

    def anchor_line(self, a: dict) -> str:
        desc = a["method"][:90]
        desc = desc[:desc.rfind(" ")] if len(a["method"]) > 90 else desc
        if a["name"] not in a["title"].split(":")[0]:
            desc = a["title"]
        when = ""
        if a["anchored_on"]:
            when = f" ({self.pick(['anchored', 'anchored', '锚定'])} {a['anchored_on']})"
        if a["url_only"]:
            return f"- {a['name']} — {desc} — https://{a['name'].lower()}.github.io/blog/{a['id']}{when}"
        return f"- {a['id']} {a['name']} — {desc}{when}"

    def knowledge_md(self) -> str:
        out = ["# inference", f"version: v412 · {self.day.isoformat()} (midday update) · 引→{len(self.anchors) + 311}",
               "", "> LLM inference 知识主干，Tom（E1）维护，Jay 的工程 filter 补充。",
               "> 每条锚定行写 `(anchored YYYY-MM-DD)` 或 `(锚定 YYYY-MM-DD)`；没写日期的是早期迁移进来的条目。", ""]
        by_sec: dict[str, list[dict]] = {}
        for a in self.anchors:
            by_sec.setdefault(a["section"], []).append(a)
        for num, level, title, _ in SECTIONS:
            out += ["#" * level + f" {num} {title}", ""]
            for a in by_sec.get(num, []):
                out.append(self.anchor_line(a))
            if level > 2:
                prof = SECTION_PROFILES.get(num)
                if prof:
                    out.append(f"- 小结：{prof[0][3]} 这条线目前 {len(by_sec.get(num, []))} 条锚定，缺生产数据 —— 待补")
                out.append("")
        return "\n".join(out) + "\n"

    def card_md(self, c: dict) -> str:
        topics = [c["slug"]] if c["kind"] == "inf" else []
        up = c.get("upvotes")
        return (f"---\narxiv_id: {c['id']}\ntitle: {json.dumps(c['title'], ensure_ascii=False)}\n"
                f"created: {c['created'].isoformat()}T{self.rnd.randint(8, 22):02d}:{self.rnd.randint(0, 59):02d}\n"
                f"source: {c['source']}\nhf_upvotes: {up if up is not None else 'null'}\n"
                f"topics: [{', '.join(topics)}]\nprimary_topic: {'true' if c['kind'] == 'inf' and self.rnd.random() < 0.5 else 'false'}\n"
                f"---\n{c['zh']}：{c['abstract'].split('. ')[0]}.\n"
                + (f"邻接 inference：{self.pick(ZH_JUDGE_INF).format(sec=c['section'] or '§2.1', other=self.pick(NAME_A))}。\n"
                   if c["kind"] == "inf" else f"{self.pick(ZH_JUDGE_OTHER).format(field=c['zh'])}。\n"))

    def queue_md(self) -> str:
        out = [f"# Work queue · {self.day.isoformat()} 22:00 CST", "",
               f"Top {len(self.queue) + 2}，按优先级排（x/5 = 与 inference 主题的相关度；新卡与积压合排）。", ""]
        items = [(f"{c['id']} {c['title']}", (4.5 if c["kind"] == "inf" else 1.0) - i * 0.05, c)
                 for i, c in enumerate(self.queue)]
        items.sort(key=lambda t: -t[1])
        feed = FEEDS[0][0]
        url_posts = self.posts[feed][:2]
        site = FEEDS[0][1].rsplit("/", 1)[0]
        for p in url_posts:
            items.insert(1, (f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html {p['title']}", 4.0, p))
        for rank, (head, score, c) in enumerate(items, 1):
            note = f"inference · {c['zh']}" if c["kind"] == "inf" else c["zh"]
            out.append(f"{rank}. {head} — {max(score, 0.5):.1f}/5 — {note}；queued {self.when(0, 10).isoformat()}")
        return "\n".join(out) + "\n"

    # ----------------------------------------------------------------- notes
    def _entry(self, n: int, p: dict, style: str, numbering: str) -> list[str]:
        r = self.rnd
        zh_nums = "一二三四五六七八九十"
        num = zh_nums[n - 1] + "、" if numbering == "zh" and n <= 10 else f"{n}. "
        up = f" — {p['upvotes']}▲" if style == "hf" and p.get("upvotes") else ""
        head = f"## {num}{p['title']}{up}"
        if r.random() < 0.06:
            head += " ⚠ 待核实"
        src_day = self.when(0, 3).isoformat()
        if style == "hf":
            src = f"链接：https://huggingface.co/papers/{p['id']} （{self.day.isoformat()}）"
        elif style == "blog" and p.get("feed_url"):
            src = f"来源：{p['feed_url']} （{p['date'].isoformat()}）"
        else:
            src = f"来源：https://arxiv.org/abs/{p['id']} （{src_day}）"
        lines = [head, "", src, ""]
        method = p["method"]
        aid = p["id"]
        if aid and r.random() < 0.04:   # the wrong ID, as people write it
            aid = f"{int(aid[:4]) - 3:04d}{aid[4:]}" if "." in aid and aid[:4].isdigit() else aid
        lines.append(f"- arXiv:{aid}；{p['zh']}：{p['name']} {method}" if aid else f"- {p['zh']}：{p['name']} {method}")
        if p["kind"] == "inf":
            lines.append("- " + self.pick(ZH_RESULT).format(metric=p["metric"], x=p["x"] or 1.5, p=int(p["p"]),
                                                           hw=self.pick(HARDWARE), model=self.pick(MODELS),
                                                           base=self.pick(BASELINES)))
            lines.append("- " + self.pick(ZH_JUDGE_INF).format(sec=p["section"] or "§2.1", other=self.pick(NAME_A)))
        else:
            lines.append("- " + self.pick(ZH_JUDGE_OTHER).format(field=p["zh"]))
        if r.random() < 0.1:
            lines.append(f"- ⚠ 待核实：{self.pick(['原文没给 baseline 配置', '数字来自作者推特，论文里没有', 'TBD: 复现脚本还没公开'])}")
        if r.random() < 0.15:
            lines.append(f"- Quote: \"{p['abstract'].split('. ')[0]}.\"")
        return lines + [""]

    def notes(self) -> list[tuple[str, str]]:
        r = self.rnd
        out = []
        listing_inf = [p for p in self.listing if p["kind"] == "inf" and p["announce"] == "new"]
        listing_other = [p for p in self.listing if p["kind"] == "other" and p["announce"] == "new"]
        blog_posts = []
        for name, url, *_ in FEEDS[:self.n["feeds"]]:
            site = url.rsplit("/", 1)[0]
            for p in self.posts[name][:4]:
                fmt = {f[0]: f[4] for f in FEEDS}[name]
                link = (f"{site}/{p['date'].strftime('%Y/%m/%d')}/{p['slug_url']}.html" if fmt == "atom"
                        else f"{site}/{p['date'].isoformat()}-{p['slug_url']}/")
                blog_posts.append(dict(p, feed_url=link, id=(p["cites"][0]["id"] if p["cites"] else None)))
        authors = list(AUTHORS)
        for i in range(self.n["notes"]):
            author = authors[i % len(authors)]
            style = {"tom": "hf", "jay": self.pick(["blog", "arxiv"]), "spark": "arxiv", "lin": "blog", "mei": "arxiv"}[author]
            day = self.day if i < int(self.n["notes"] * 0.7) else self.day - timedelta(days=1)
            hh, mm = r.randint(7, 21), r.choice([0, 10, 20, 30, 45, 50])
            if style == "hf":
                pool = sorted(r.sample(self.hf, min(8, len(self.hf))), key=lambda p: -p["upvotes"])
            elif style == "blog":
                pool = r.sample(blog_posts, min(r.randint(4, 7), len(blog_posts)))
            else:
                pool = (r.sample(listing_inf, r.randint(2, 5)) + r.sample(listing_other, r.randint(1, 3))
                        + r.sample(self.anchors, 1))
                r.shuffle(pool)
            topic = pool[0]["slug"]
            slug = f"{author}-{style}-{topic}-{i:02d}"
            no_time = r.random() < 0.2
            fname = f"{day.isoformat()}-{slug}.md" if no_time else f"{day.isoformat()}T{hh:02d}{mm:02d}-{slug}.md"
            title_zh = {"hf": "HF Daily Papers", "blog": "工程 filter · 博客 / Substack", "arxiv": "arXiv 扫读"}[style]
            lines: list[str] = []
            if author != "spark":
                lines += ["---", f'title: "{author.title()} {title_zh}（{day.strftime("%b %-d")}）"']
                if author != "tom":
                    lines.append(f"credibility: {r.choice([3, 4, 4, 5])}")
                lines += [f"tags: [{', '.join(sorted({p['slug'] for p in pool}))}]", "---", ""]
            lines += [f"# {author.title()} · {title_zh} · {day.isoformat()} {hh:02d}:{mm:02d} CST", "",
                      self.pick(["今天的增量按相关度排，inference 主轴在前。", "早间例行扫一遍：inference 主要是确认性内容。",
                                 "Quick notes; 中英混写，数字以原文为准。", "晚间补充：几条和 §2.3 有关。"]), ""]
            if style == "arxiv" and r.random() < 0.25:   # a digest without ## headings: one entry per list item
                for p in pool:
                    lines.append(f"- **{p['name']}**：{p['zh']}，arXiv:{p['id']}")
                    lines.append(f"  来源：https://arxiv.org/abs/{p['id']} （{self.when(0, 2).isoformat()}）")
                    lines.append(f"  - {p['abstract'].split('. ')[0][:150]}")
                    lines.append(f"  - {self.pick(ZH_JUDGE_OTHER if p['kind'] == 'other' else ZH_JUDGE_INF).format(sec=p['section'] or '§2.1', other='RoofLang', field=p['zh'])}")
            else:
                numbering = "zh" if r.random() < 0.3 else "n"
                for k, p in enumerate(pool, 1):
                    lines += self._entry(k, p, style, numbering)
            out.append((f"inbox/{author}/{fname}", "\n".join(lines).rstrip() + "\n"))
        return out


def generate(ws: Path, seed: int, day: date, n: dict[str, int]) -> dict[str, int]:
    g = Day(seed, day, n)
    g.build()
    return g.write(ws)
