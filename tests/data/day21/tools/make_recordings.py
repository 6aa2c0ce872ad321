"""Writes the day-21 recordings: the arXiv listing of Thu 5 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 21; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 20). No blog posts on Thursday: this file does not touch
the blogs. Thursday's listing announces what was submitted on Wednesday (announced Wednesday 20:00 EST, i.e.
Thursday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers
(it writes no other month); no rule reads them.

One thing is new on this day: the same paper announced twice under two IDs. MuxStream was submitted twice by its
authors: 2611.04102 and 2611.04510 carry the same title and authors, and the second abstract only adds a last
sentence (the code's address). Both are in the listing; neither is on HF.

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 20's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day21)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

MUX_TITLE = "MuxStream: Multiplexing Thousands of Token Streams over a Few Gateway Connections"
MUX_ABSTRACT = (
    "An LLM gateway that opens one upstream connection per streaming request spends much of its CPU time on "
    "connection handling. MuxStream multiplexes the token streams of thousands of requests onto a few HTTP/2 "
    "connections between the gateway and the serving engines, and demultiplexes them at the gateway. MuxStream cuts "
    "the gateway's CPU time per streamed token by 40%.")
MUX_AUTHORS = ["Ingrid Solberg", "Mateus Araujo", "He Lan"]

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # read together with AtticPool at the reading group; its 27% is right in the minutes' table
    ("2611.03741", 1, "new", ["cs.DC", "cs.AR"],
     "LoftKV: Reading Idle Conversations' KV Cache in Place from CXL-Attached Memory",
     "Multi-turn serving keeps the KV cache of idle conversations in host DRAM or drops it and recomputes it, and "
     "both delay the next turn. LoftKV places the KV blocks of idle conversations in CXL-attached memory expanders "
     "and lets the decode attention kernel read them in place with load instructions, without copying them back to "
     "GPU memory. LoftKV lowers the time to first token of returning conversations by 27%.",
     ["Wiebke Hartmann", "Anand Raghavan", "Cao Min"]),
    # the minutes' table gives it LoftKV's 27% (number-conflict): its abstract says 19%
    ("2611.04265", 1, "new", ["cs.DC"],
     "AtticPool: A Rack-Shared CXL Memory Pool for the Weights of Rarely Used Models",
     "Clusters that serve many rarely used models reload their weights from network storage whenever a request "
     "arrives for one of them. AtticPool keeps the weights of rarely used models in a CXL memory pool shared by the "
     "servers of a rack, so that any server loads such a model from the pool at memory speed. AtticPool lowers the "
     "time to first token of requests to rarely used models by 19%.",
     ["Lorenzo Bassi", "Yuki Tanabe", "Priya Nair"]),
    # its ID copied from a slide photo in the minutes as 2611.04863 (id-conflict); HF upvotes 16 / 12 / 21 (fell)
    ("2611.04868", 1, "new", ["cs.LG", "cs.CL"],
     "BranchCut: Stopping Weak Best-of-N Branches Early to Free Their KV Cache",
     "Best-of-N sampling keeps every branch of a request decoding to the end, although most branches are clearly "
     "worse long before. BranchCut scores the partial branches with a small reward model every k tokens, stops the "
     "weakest ones and frees their KV cache at once, so that the batch admits more requests. BranchCut raises the "
     "throughput of best-of-8 serving by 2.3x with no loss of accuracy on a math reasoning benchmark.",
     ["Sofia Lindgren", "Kwame Asante", "Zhao Ning"]),
    # boundary case (the reading group): DraftTutor (§3.1, anchored 2026-10-20) told again
    ("2611.03958", 1, "new", ["cs.CL", "cs.LG"],
     "MentorDraft: Distilling the Draft Model Online on Live Traffic",
     "A draft model trained offline drifts away from the traffic a deployment actually serves. MentorDraft distills "
     "the draft model online on the target model's outputs from live traffic, picks the distillation samples by the "
     "draft's running acceptance rate, and swaps the new draft in when its measured acceptance rate is higher than "
     "the current one's. MentorDraft raises the mean accepted length by 21% on a production chat trace.",
     ["Elena Popescu", "Tobias Kruger", "Lin Yao"]),
    # boundary decoy (Spark sets it apart from SkewTP, §2.1); its card's file name spells 2610.04731
    ("2611.04731", 1, "new", ["cs.DC"],
     "DimRoute: Routing Fewer Requests to Replicas Whose GPUs Are Throttling",
     "GPUs that throttle under heat or power limits slow down every request placed on their replica. DimRoute has "
     "every replica report its GPUs' throttling state and sends fewer new requests to the replicas that are "
     "throttling, without moving the requests already running there. DimRoute lowers the p99 time per output token "
     "by 23% on a cluster with uneven cooling.",
     ["Hamid Karimi", "Beatriz Lopes", "Sun Wei"]),
    # next week's reading: the minutes write it "arXiv 2611.0521" (a digit dropped: impossible-id)
    ("2611.05214", 1, "new", ["cs.DC", "cs.AR"],
     "QuayDecode: Offloading the Decode of Small Models to Server CPUs' Matrix Units",
     "Servers that host small language models beside large ones leave their CPUs idle while the GPUs are saturated. "
     "QuayDecode keeps the prefill of small models on the GPU and runs their decode on the matrix extensions of the "
     "server's CPUs, freeing GPU time for the large models. QuayDecode frees 14% of the GPU time for the large "
     "models while the small models' time per output token stays within their SLO.",
     ["Greta Holm", "Victor Mendes", "Pan Jing"]),
    # the same paper twice (the authors submitted it twice): one title, two IDs (id-conflict); Jay asks
    ("2611.04102", 1, "new", ["cs.DC", "cs.NI"], MUX_TITLE, MUX_ABSTRACT, MUX_AUTHORS),
    ("2611.04510", 1, "new", ["cs.DC", "cs.NI"], MUX_TITLE,
     MUX_ABSTRACT + " Code is available at https://github.com/muxstream/muxstream.", MUX_AUTHORS),
    # keyword trap (not LLM inference): cold items of a key-value store in a rack's CXL memory pool, read in place
    ("2611.05063", 1, "cross", ["cs.DB", "cs.DC"],
     "Pooled CXL Memory for the Cold Items of Distributed Key-Value Stores",
     "In-memory key-value stores keep their cold items in the same DRAM as the hot ones. We place the cold items of a "
     "distributed key-value store in a CXL memory pool shared by the servers of a rack and serve reads of them in "
     "place, without copying them back to local DRAM. On a production cache trace the design lowers the memory cost "
     "per stored item by 38% at an unchanged p99 read latency.",
     ["Jonas Weller", "Aylin Demir"]),
]

# IDs the team writes wrongly: BranchCut written 2611.04863 (the minutes), DimRoute's card named 2610.04731, and the
# four-digit "arXiv 2611.0521" (the minutes) — none in any recording; the fillers' range is 2610.40450-41900.
RESERVED = {p[0] for p in PLANTED} | {"2611.04863", "2610.04731"}
RESERVED_PREFIXES = ("2611.0521", "2610.04731")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github)
HF = [
    ("2611.04868", 21, "2026-11-05T00:36:12.418Z",
     "BranchCut stops the weakest best-of-N branches early, scored by a small reward model, and frees their KV cache.",
     ["best-of-N", "sampling", "KV cache"], "https://github.com/branchcut/branchcut"),
    ("2611.03741", 14, "2026-11-05T00:52:40.071Z",
     "LoftKV keeps idle conversations' KV cache in CXL-attached memory and reads it in place during decode.",
     ["KV cache", "CXL", "multi-turn"], None),
    ("2611.03958", 11, "2026-11-05T01:03:27.590Z",
     "MentorDraft distills the draft model online on live traffic and swaps it in when its acceptance rate rises.",
     ["speculative decoding", "distillation", "draft model"], None),
    ("2611.04265", 9, "2026-11-05T01:15:58.236Z",
     "AtticPool keeps the weights of rarely used models in a CXL memory pool shared by a rack's servers.",
     ["CXL", "model weights", "multi-model serving"], None),
    ("2611.04731", 5, "2026-11-05T01:41:09.884Z",
     "DimRoute sends fewer new requests to replicas whose GPUs are throttling.",
     ["routing", "throttling", "load balancing"], None),
    ("2611.05063", 2, "2026-11-05T03:12:44.517Z",
     "Cold items of a distributed key-value store are kept in a rack's CXL memory pool and read in place.",
     ["CXL", "key-value stores", "memory pooling"], None),
]

DAY = Day(number=21, date="2026-11-05", pub="Thu, 05 Nov 2026 00:00:00 -0500",
          last_build="Thu, 05 Nov 2026 05:00:37 +0000", seed=20261105,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"PausePoint", "SlotLend", "EtherKV", "Lathe",
                                                                  "Tessera", "Pooled"},
          ids=(40450, 41900), hf=HF, hf_published=("2026-11-04T00:00:00.000Z", "2026-11-04T20:00:00.000Z"),
          prefixes=("Baikal", "Titicaca", "Ladoga", "Malawi", "Huron", "Garda", "Onega", "Balaton", "Lucerne", "Ohrid"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
