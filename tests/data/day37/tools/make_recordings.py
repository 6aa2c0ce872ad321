"""Writes the day-37 recordings: the arXiv listing of Fri 27 Nov 2026 and the HF daily papers of that day.

Hand-made, deterministic (fixed seed): the generator is tests/data/tools/recordings.py, shared by
days 3 to 37; this file is the day's data. Run from the day's folder: python tools/make_recordings.py
The planted papers are spelled out below; the rest is invented filler far from LLM inference whose coined
names avoid the earlier listings' (sample day, days 2 to 36) and every word of today's workspace. Friday's listing
announces what was submitted on Thursday (announced Thursday 20:00 EST, i.e. Friday 09:00 CST); arXiv numbers the
new papers 2611.xxxxx. The fillers keep the shared generator's 2610 numbers (it writes no other month); no rule reads
them. No blog post is in the window: this file writes no blog, and the overlay carries none.

The day is a multimodal (vision-language) serving and on-device / edge inference day: five new papers (the vision
encoder disaggregated onto its own GPU pool with a content-addressed image embedding cache; image tokens pruned before
prefill by the first layer's attention; video frames sampled by the user's question; on-device prefill on the NPU and
decode on the GPU over unified memory; per-request weight precision and clock on embedded boards) and a keyword trap.
Each abstract keys a figure by a condition: LensHop's TTFT by image resolution (448×448 1.9x, 1344×1344 3.4x; Jay gives
448×448 3.4x), GlintPrune's prefill throughput by batch size (batch 1 1.7x, batch 32 2.6x; Omer gives batch 1 2.6x),
FrameSift's TTFT by frames per clip (8 frames 0.38 s, 32 frames 1.12 s; Jay gives 32 frames 0.38 s), PebbleRun's decode
rate by device (Snapdragon 8 Elite phone 17.6 tokens/s, M4 Max laptop 46.3 tokens/s; card 534 gives the phone 46.3),
ThimbleLM's decode rate by weight precision (int4 24.8 tokens/s, fp16 11.3 tokens/s; Spark gives fp16 24.8). Ines gives
FrameSift LensHop's 1.5x (its own: 2.2x); card 532 writes LensHop's 58% hit rate as 5.8%. GlintPrune does what
GlanceDraft (2610.23529, §3.1) does, by Jay's word ("高仿"); PebbleRun what EdgeAgent (2609.21958, §1.(1)) does
("临摹"). LensHop is set apart from DISCO (2609.33485; Jay, "桥归桥，路归路"); FrameSift overlaps nothing anchored
(Jay, "处女地"); ThimbleLM is set apart from WattBatch (2610.16205; Jay, "不是一回事").
MergeLite is the keyword trap (token merging for a vision transformer image classifier on edge NPUs: vision, encoder,
image tokens, edge, NPU, latency, smartphone — no language model served).

The tool writes under its own day folder (the parent of tools/) and finds the shared generator beside that folder
(tests/data/tools). It calls write_listing and write_hf itself, as days 27 to 36's do, and writes no bytecode.
"""
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                      # nothing written beside the shared generator
HERE = Path(__file__).resolve().parents[1]          # the day's folder (tests/data/day37)
sys.path.insert(0, str(HERE.parent / "tools"))
from recordings import Day, write_hf, write_listing  # noqa: E402  (tests/data/tools: the generator the days share)

# (id, version, announce type, categories, title, abstract, authors)
PLANTED = [
    # N1: Jay "摘要：448×448 的图 TTFT 降 3.4×" (the 1344×1344 figure given to 448×448 images; theirs is 1.9x); card 532
    # writes both right, "embedding cache 命中率 5.8%" (the abstract: 58%) and "https://huggingface.co/papers/2611.2516"
    # (a digit dropped); Ines quotes 1.5x right; boundary decoy (Jay: "LensHop 和 §2.4 的 DISCO 是桥归桥，路归路");
    # Omer writes "FrameSift（2611.25163）", this paper's ID beside FrameSift's name; HF 42 / 67 (card 532) / 81: rising
    ("2611.25163", 1, "new", ["cs.DC", "cs.CV"],
     "LensHop: Disaggregated Vision Encoders with a Content-Addressed Image Embedding Cache for Vision-Language "
     "Model Serving",
     "Vision-language models spend a growing share of their time to first token in the vision encoder, and serving "
     "engines run the encoder on the same GPUs as the language model, so image-heavy requests stall the decoding of "
     "others. LensHop moves the vision encoder onto a separate pool of GPUs, caches each image's embeddings under a "
     "hash of its pixels so that a repeated image is never encoded twice, and streams the embeddings to the "
     "language-model instances over RDMA while they prefill the text tokens. We evaluate LensHop on a multi-turn "
     "visual chat trace served by Qwen2-VL-72B on H100 GPUs. LensHop lowers TTFT by 1.9x for 448×448 images and by "
     "3.4x for 1344×1344 images. The embedding cache hit rate is 58% on the trace. LensHop serves 1.5x more requests "
     "per second than running the encoder on the language model's GPUs.",
     ["Annika Bergstrom", "Rafael Quintero", "Zhao Peiyu"]),
    # N2 + boundary case: Omer "摘要说 batch size 1 的时候 prefill 吞吐就提升 2.6×" (the batch-32 figure given to
    # batch size 1; its own is 1.7x); card 533 writes both right, 71% right, "前身是 2610.2352（GlanceDraft …）"
    # (GlanceDraft 2610.23529 with a digit dropped); Jay "GlintPrune 是 §3.1 GlanceDraft 的高仿"; Ines heads her entry
    # "GlintPrune（2611.25940）" (an unknown ID); HF 39 / 47 (card 533) / 66: rising
    ("2611.25490", 1, "new", ["cs.DC", "cs.LG"],
     "GlintPrune: Pruning Image Tokens before Prefill by First-Layer Attention in Vision-Language Model Serving",
     "A high-resolution image becomes thousands of visual tokens, and their prefill dominates both the time to first "
     "token and the KV cache of vision-language model serving. GlintPrune runs the language model's first layer over "
     "all visual tokens, keeps only the tokens that the text of the request attends to most, and prefills the "
     "remaining layers on the pruned sequence, batching requests whose images keep different numbers of tokens. "
     "Keeping a quarter of the visual tokens, GlintPrune raises prefill throughput by 1.7x at batch size 1 and by "
     "2.6x at batch size 32. KV cache memory per request falls by 71%. Accuracy on six visual question answering "
     "benchmarks drops by 0.8 points on average.",
     ["Keiko Matsuda", "Idris Haddad", "Lena Vogt", "Sun Haoran"]),
    # N3: Jay "摘要：每段采 32 帧 TTFT 也只有 0.38 s" (the 8-frame figure given to 32 frames; theirs is 1.12 s); Tom's
    # digest writes both right; Ines "摘要：吞吐是均匀采样的 1.5×" (LensHop's figure; this paper's is 2.2x); boundary
    # decoy (Jay: "FrameSift 这块在文档里是处女地", no paper named); Omer writes it with LensHop's ID; no card;
    # HF 28 / 68: rising
    ("2611.25837", 1, "new", ["cs.DC", "cs.CV"],
     "FrameSift: Query-Aware Frame Sampling for Serving Video-Language Models",
     "Video-language models are served by sampling a fixed number of frames from each clip, and every frame adds "
     "hundreds of visual tokens to the prefill. FrameSift scores the frames of a clip by scene change and by their "
     "similarity to the user's question with a small image encoder on the serving host, sends the model only the "
     "frames that score highest, and keeps the scores of a clip for follow-up questions. On long-video question "
     "answering served by LLaVA-Video-7B, TTFT is 0.38 s with 8 frames and 1.12 s with 32 frames per clip. "
     "Throughput rises 2.2x over uniform sampling of 64 frames. Answer accuracy stays within one point of uniform "
     "sampling of 64 frames.",
     ["Maren Solberg", "Tiago Amaral", "Huang Xinyi"]),
    # N4 + boundary case: card 534 "摘要：骁龙 8 Elite 手机上 decode 46.3 tokens/s" (the laptop's figure given to the
    # phone; the phone's is 17.6 tokens/s); Tom's digest writes both right; card 534's 3.1x right; Jay "PebbleRun 就是在
    # 临摹 §1.(1) 的 EdgeAgent" and "arXiv:2600.26214" (month 00); Spark's 待确认 (plugged in or on battery?);
    # HF 56 (Tom 09:30) / 89 (card 534, 16:20) / 78 (fetch): fell
    ("2611.26214", 1, "new", ["cs.LG", "cs.AR"],
     "PebbleRun: NPU Prefill and GPU Decode over Unified Memory for On-Device LLM Inference",
     "Phones and laptops now pair a neural processing unit with a GPU on one unified memory, yet on-device LLM "
     "runtimes run both phases of inference on one of them. PebbleRun prefills the prompt on the NPU with int4 "
     "weights laid out for its matrix engines, decodes on the GPU from the same weights in unified memory without a "
     "copy, and hands the KV cache over in place. Serving Llama-3.2-3B, PebbleRun decodes 17.6 tokens/s on a "
     "Snapdragon 8 Elite phone and 46.3 tokens/s on an M4 Max laptop. Its prefill is 3.1x faster than llama.cpp on "
     "the same devices.",
     ["Oona Virtanen", "Samuel Achterberg", "Gao Lingxi"]),
    # N5: Spark "摘要：fp16 权重的时候 decode 也有 24.8 tokens/s" (the int4 figure given to fp16; fp16's is
    # 11.3 tokens/s); card 535 writes both right and 37% right, "Orin Nano … needs check", and is named
    # 535-2611-26527.md with arxiv_id 2611.26572; Spark's own run on the team's Jetson (19.7 tokens/s, "不能直接对比");
    # boundary decoy (Jay: "和 §10 的 WattBatch 不是一回事"); HF 22 / 74 (card 535) / 77: rising
    ("2611.26572", 1, "new", ["cs.DC", "cs.AR"],
     "ThimbleLM: Per-Request Weight Precision and Clock Selection for Energy-Efficient LLM Inference on Embedded "
     "Boards",
     "Embedded boards run small language models for robots and kiosks under a fixed power budget, and their runtimes "
     "pick one weight precision and one clock for every request. ThimbleLM keeps int4 and fp16 copies of the layers "
     "most sensitive to quantization, chooses for each request the precision and the GPU clock that meet its "
     "deadline at the least energy, and switches between them between decode steps. On a Jetson AGX Orin serving "
     "Phi-3-mini, ThimbleLM decodes 24.8 tokens/s with int4 weights and 11.3 tokens/s with fp16 weights. Energy per "
     "generated token falls by 37% against the board's default power mode.",
     ["Petra Novotna", "Emeka Obi", "Lars Henning"]),
    # keyword trap (not LLM serving): vision, encoder, image tokens, edge devices, NPU, latency, smartphone — token
    # merging for a vision transformer image classifier, no language model
    ("2611.26905", 1, "new", ["cs.CV", "cs.LG"],
     "MergeLite: NPU-Friendly Token Merging for Vision Transformer Image Classification on Edge Devices",
     "Vision transformers on edge devices spend most of their latency in attention over image tokens, and "
     "token-merging methods designed for GPUs map poorly onto the fixed-shape matrix engines of mobile NPUs. "
     "MergeLite merges similar image tokens in static groups whose shapes the NPU compiler can tile, and fine-tunes "
     "the encoder for two epochs to recover accuracy. On ImageNet-1K, MergeLite cuts the latency of a ViT-B/16 "
     "classifier by 41% on a smartphone NPU at 0.4 points lower top-1 accuracy, and it needs no change to the "
     "compiler.",
     ["Clara Eriksen", "Tunde Adeyemi"]),
]

# Every arXiv ID and stem written in today's workspace (notes, cards, queue, the knowledge doc; recordings aside),
# and every word there, so that no filler takes one. Besides them, the slips of the labels: GlintPrune written
# 2611.25940 (Ines), card 535 named 535-2611-26527.md (only in the file name), GlanceDraft 2610.23529 written
# 2610.23592 (Omer), FrameSift written with LensHop's 2611.25163 (Omer), PebbleRun written arXiv:2600.26214 (Jay),
# LensHop's HF URL 2611.2516 (card 532), GlanceDraft 2610.23529 written 2610.2352 (card 533), "2612.04385 … 现在还没
# 放出来" (Spark), the size 1105.38619 KB (Omer) and the old 2304.08485 and 2312.11514 (Ines) — none in any recording;
# the fillers' range is 2610.64500-65950 (day 36's was 63000-64450).
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((HERE / "workspace").rglob("*"))
                 if p.is_file() and "recordings" not in p.relative_to(HERE / "workspace").parts)
WRITTEN = set(re.findall(r"\d{4}\.\d{4,5}", TEXT))
RESERVED = {p[0] for p in PLANTED} | {i for i in WRITTEN if len(i) == 10} | {
    "2611.25940", "2611.26527", "2600.26214", "2610.23592", "2610.23529", "2609.21958", "2609.33485", "2610.16205",
    "2612.04385", "1105.38619", "2304.08485", "2312.11514", "2611.23691"}
RESERVED_PREFIXES = tuple(sorted({i for i in WRITTEN if len(i) == 9} | {
    "2611.2516", "2610.2352", "2611.2594", "2611.2652", "2600.2621", "2610.2359", "2612.0438"}))

# (id, upvotes, submittedOnDailyAt, ai_summary, keywords, github), by upvotes as HF lists them
HF = [
    ("2611.25163", 81, "2026-11-27T00:04:37.118Z",
     "LensHop runs the vision encoder on its own GPU pool and caches image embeddings by a hash of their pixels.",
     ["vision-language serving", "encoder disaggregation", "embedding cache"], None),
    ("2611.26214", 78, "2026-11-27T00:16:52.406Z",
     "PebbleRun prefills on the NPU and decodes on the GPU of a phone or laptop, sharing int4 weights in unified memory.",
     ["on-device inference", "NPU", "unified memory"], "https://github.com/pebblerun/pebblerun"),
    ("2611.26572", 77, "2026-11-27T00:29:08.751Z",
     "ThimbleLM picks each request's weight precision and GPU clock on embedded boards for the least energy per token.",
     ["embedded inference", "mixed precision", "energy per token"], "https://github.com/thimblelm/thimblelm"),
    ("2611.25837", 68, "2026-11-27T00:41:26.930Z",
     "FrameSift samples the frames of a video clip by scene change and by their similarity to the user's question.",
     ["video-language models", "frame sampling", "TTFT"], None),
    ("2611.25490", 66, "2026-11-27T00:53:45.287Z",
     "GlintPrune prunes image tokens before prefill by the attention of the language model's first layer.",
     ["visual token pruning", "prefill", "VLM serving"], None),
    ("2611.26905", 6, "2026-11-27T06:18:03.664Z",
     "MergeLite merges image tokens of a vision transformer in NPU-friendly static groups for edge classification.",
     ["token merging", "vision transformer", "edge NPU"], None),
]

DAY = Day(number=37, date="2026-11-27", pub="Fri, 27 Nov 2026 00:00:00 -0500",
          last_build="Fri, 27 Nov 2026 05:00:41 +0000", seed=20261127,
          planted=PLANTED, reserved=RESERVED, reserved_prefixes=RESERVED_PREFIXES,
          taken_names={it[4].split(":")[0] for it in PLANTED} | set(re.findall(r"[A-Za-z][A-Za-z0-9+-]*", TEXT)),
          ids=(64500, 65950), hf=HF, hf_published=("2026-11-26T00:00:00.000Z", "2026-11-26T20:00:00.000Z"),
          prefixes=("Orion", "Draco", "Cygnus", "Auriga", "Pyxis", "Fornax", "Tucana", "Lacerta", "Hydrus",
                    "Columba"))


if __name__ == "__main__":
    papers = write_listing(DAY, HERE)
    write_hf(DAY, papers, HERE)
    print(len(papers), "listing items;", len(DAY.hf), "HF items")
