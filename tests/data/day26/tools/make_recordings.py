"""Writes the day-26 recordings: the arXiv listing of Thu 12 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 26; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 25). Thursday's listing announces what was submitted on
Wednesday (announced Wednesday 20:00 EST, i.e. Thursday 09:00 CST); arXiv numbers the new papers 2611.xxxxx. The
fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads them.
This file does not touch the blogs: no blog post is in the window.

The day is a speculative decoding and quantization day. One planted paper (TrailDraft) does what DraftTutor
(2610.21238, anchored in §3.1 on 2026-10-20) does; another (HadaFlow) what TwirlQ (2610.26230, anchored in §3.2 on
2026-10-23) does. PaceSpec (2610.24893, anchored in §3.1 on 2026-10-22; v1 on day 10's listing: "2.2x faster than
autoregressive decoding on chat and 1.7x faster on code", at batch size 1) is replaced by a v2 that re-measures every
speed-up at batch size 16 (1.6x).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as day 25's does.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day26)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # boundary case (Maarten: "TrailDraft is cut from the same cloth as DraftTutor in §3.1");
    # HF 19 (Tom 09:30) / 17 (card 485, 16:00) / 26 (fetch): fell between the note and the card
    ("2611.09815", 1, "new", ["cs.CL", "cs.LG"],
     "TrailDraft: Keeping Draft Models Aligned with Shifting Traffic by Distilling on Served Outputs",
     "A draft model distilled once drifts away from the requests a service sees, and fewer of its tokens are "
     "accepted. TrailDraft logs the target model's outputs on served requests, keeps distilling the draft model on "
     "them, and swaps a new draft model in when its acceptance on a held-out slice of recent traffic is higher. "
     "TrailDraft raises the mean accepted length from 2.9 to 3.6 tokens per step and decodes 1.4x faster than with "
     "a draft model distilled once offline.",
     ["Odile Farrow", "Keshav Lindahl", "Hu Zhenyu"]),
    # boundary decoy (Maarten: "a different kettle of fish from ShallowDraft in §3.1"); Jay copies the acceptance
    # rate as 71% (the abstract: 81%) and writes its HF link as huggingface.co/papers/2611.1037;
    # its card is named 486-2610-10372.md with arxiv_id 2611.10372; HF 7 / 9 / 12: rising
    ("2611.10372", 1, "new", ["cs.CL", "cs.LG"],
     "NibbleDraft: Self-Speculative Decoding with a 4-Bit Copy of the Target Model",
     "Speculative decoding needs a draft model that is trained, served and kept in GPU memory beside the target. "
     "NibbleDraft drafts with a 4-bit copy of the target model itself, which keeps every layer and shares the "
     "target's KV cache, and verifies the drafts with the target at full precision. The 4-bit drafter reaches an "
     "acceptance rate of 81%, and NibbleDraft speeds up decoding by 1.9x at batch size 1 with identical outputs.",
     ["Malin Ekwueme", "Zofia Brennan", "Takumi Okonjo"]),
    # boundary case (Ines: "就是拿 §3.2 的 TwirlQ 照葫芦画瓢"); Ines writes its decode throughput as 3.2 倍 (the
    # abstract: 2.3x); HF 31 / 38 / 43: rising
    ("2611.10533", 1, "new", ["cs.LG", "cs.AR"],
     "HadaFlow: Fused Online Hadamard Rotations for Outlier-Free W4A4 Serving without Calibration Data",
     "Four-bit activations lose accuracy because a few channels carry large outliers. HadaFlow rotates weights "
     "offline and activations online with Hadamard transforms fused into the prologue of each GEMM kernel, so that "
     "4-bit weights and activations need no outlier handling, no calibration data and no training. HadaFlow serves "
     "W4A4 models at 2.3x the decode throughput of FP16 with under half a point of accuracy lost.",
     ["Paloma Ngata", "Soren Vik", "Qiao Lanxin"]),
    # boundary decoy (Jay: "和 §3.2 的 MixFormat 泾渭分明"); Ines writes 3.25 bits per weight (the abstract: 2.75);
    # Jay's "2.1 倍" and Maarten's "110% faster" agree with the abstract's 2.1x; HF 13 / 18 / 24: rising
    ("2611.10719", 1, "new", ["cs.LG", "cs.DC"],
     "BitTerrace: Per-Channel Bit Budgets for Mixed-Width Integer Weights in Memory-Bound LLM Decoding",
     "Decoding a large language model is bound by the memory traffic of its weights, and uniform 2-bit weights lose "
     "too much accuracy. BitTerrace gives each output channel of a weight matrix its own bit width of 2, 3 or 4 "
     "bits from a per-layer bit budget, and packs the mixed-width channels into integer GEMM tiles. At 2.75 bits "
     "per weight on average, a 70B model stays within 0.18 of FP16's WikiText-2 perplexity and decodes 2.1x faster "
     "than FP16 on one GPU.",
     ["Zofia Okonjo", "Takumi Brennan", "Ren Haoyu"]),
    # PaceSpec's v2 (v1: day 10's listing, 2.2x on chat and 1.7x on code at batch size 1): re-measured at batch
    # size 16. The lathe-users thread in Omer's note quotes v1's 2.2x
    ("2610.24893", 2, "replace", ["cs.DC"],
     "PaceSpec: Per-Request Speculation Lengths from Running Acceptance Rates",
     "Speculative decoding drafts a fixed number of tokens per step, although requests differ in how many drafts "
     "are accepted. PaceSpec keeps each request's running acceptance rate and chooses, at every step, how many "
     "tokens that request drafts, with no training and no change to the draft or target model. This version "
     "measures every speed-up at batch size 16 instead of batch size 1: PaceSpec decodes 1.6x faster than "
     "autoregressive decoding.",
     ["Nina Berger", "Tariq Anwar", "Jiang Rui"]),
    # keyword trap (not LLM inference): speculative execution, two-bit confidence, accepted predictions — CPU cores
    ("2611.10958", 1, "cross", ["cs.AR", "cs.PF"],
     "BranchKiln: Two-Bit Confidence Counters for Value Prediction under Deep Speculative Execution",
     "Value prediction lets an out-of-order core speculate past long-latency loads, but a wrong prediction flushes "
     "the pipeline. BranchKiln quantizes the confidence of each predictor entry to two bits and accepts a predicted "
     "value only above a threshold it tunes per load from recent flushes. On SPEC CPU 2017, BranchKiln raises IPC by "
     "4.1% and flushes 38% fewer times than a three-bit baseline.",
     ["Malin Hardcastle", "Keshav Rao"]),
]

# IDs the team writes wrongly — NibbleDraft's card named 2610.10372, "huggingface.co/papers/2611.1037" (Jay),
# TwirlQ with MixFormat's ID 2610.24541 (Ines), 2612.01377 (Maarten, announced), 1309.04712 (Maarten), the ticket
# 0612.20417 (Omer) and the old 1402.7719 (Ines) — none in any recording;
# the fillers' range is 2610.48000-49450 (day 25's was 46500-47950).
RESERVED = {p[0] for p in PLANTED} | {"2610.10372", "2610.24541", "2610.26230", "2610.21238", "2610.16059"}
RESERVED_PREFIXES = ("2611.1037", "2612.0137", "1309.0471", "0612.2041", "1402.7719")

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.10533", 43, "2026-11-12T00:26:09.318Z",
     "HadaFlow fuses online Hadamard rotations into GEMM kernels for W4A4 serving without calibration.",
     ["quantization", "W4A4", "Hadamard rotation"], None),
    ("2611.09815", 26, "2026-11-12T00:11:42.507Z",
     "TrailDraft keeps distilling the draft model on served outputs and swaps it in when acceptance improves.",
     ["speculative decoding", "draft models", "distillation"], "https://github.com/traildraft/traildraft"),
    ("2611.10719", 24, "2026-11-12T00:52:27.663Z",
     "BitTerrace gives each weight channel its own bit width for 2.75 bits per weight at near-FP16 perplexity.",
     ["weight quantization", "mixed precision", "decoding"], None),
    ("2611.10372", 12, "2026-11-12T00:38:55.140Z",
     "NibbleDraft drafts with a 4-bit copy of the target model that shares its KV cache.",
     ["speculative decoding", "self-speculation", "quantization"], None),
    ("2611.10958", 4, "2026-11-12T03:48:14.902Z",
     "Two-bit confidence counters decide which predicted values an out-of-order core speculates on.",
     ["value prediction", "speculative execution", "microarchitecture"], None),
]

DAY = Day(number=26, date="2026-11-12", pub="Thu, 12 Nov 2026 00:00:00 -0500",
          last_build="Thu, 12 Nov 2026 05:00:37 +0000", seed=20261112,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | {"DraftTutor", "TwirlQ", "MixFormat", "ShallowDraft",
                                                                  "FoldQ", "EAGLE", "Lathe", "Tessera", "QuayDecode",
                                                                  "SignKV", "ChordPD", "CoDraft", "BroadSpec",
                                                                  "GlideMoE", "TiltTP", "MuxStream", "PatchKV",
                                                                  "StepTell", "TenantFence", "RadixPeek", "KVShield"},
          ids=(48000, 49450), hf=HF, hf_published=("2026-11-11T00:00:00.000Z", "2026-11-11T20:00:00.000Z"),
          prefixes=("Tarpon", "Grouper", "Perch", "Sculpin", "Wrasse", "Gudgeon", "Snapper", "Barbel",
                    "Bream", "Sturgeon"))


def write_day(day, root):
    papers = write_listing(day, root)
    write_hf(day, papers, root)
    print(len(papers), "listing items;", len(day.hf), "HF items")


if __name__ == "__main__":
    write_day(DAY, HERE)
