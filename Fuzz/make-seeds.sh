#!/usr/bin/env bash
# Regenerates the ffmpeg-made seeds under Fuzz/Seeds/ (tiny files: a few frames at 16x16 or so).
# The hand-made seeds (graphs, shaders, .cube, muxer and time records) are committed as they are.
# Run from anywhere: ./Fuzz/make-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/Seeds"
ff() { ffmpeg -nostdin -hide_banner -v error -y "$@"; }
src=(-f lavfi -i testsrc=size=16x16:rate=25)
tone=(-f lavfi -i sine=frequency=440:sample_rate=8000)

mkdir -p fuzz-y4m fuzz-wav fuzz-h264 fuzz-hevc fuzz-paramsets fuzz-ivf fuzz-adts
ff "${src[@]}" -frames:v 2 -pix_fmt yuv420p fuzz-y4m/420.y4m
ff "${src[@]}" -frames:v 1 -pix_fmt yuv444p fuzz-y4m/444.y4m
ff "${src[@]}" -frames:v 1 -pix_fmt gray fuzz-y4m/mono.y4m
ff -f lavfi -i testsrc=size=7x5:rate=30000/1001 -frames:v 1 -pix_fmt yuv422p fuzz-y4m/422-odd.y4m

ff "${tone[@]}" -t 0.005 -c:a pcm_s16le fuzz-wav/s16.wav
ff "${tone[@]}" -t 0.005 -ac 2 -c:a pcm_s24le fuzz-wav/s24-stereo.wav
ff "${tone[@]}" -t 0.005 -c:a pcm_f32le fuzz-wav/f32.wav
ff "${tone[@]}" -t 0.005 -c:a pcm_u8 -rf64 always fuzz-wav/u8-rf64.wav

ff "${src[@]}" -frames:v 4 -pix_fmt yuv420p -c:v libx264 -preset ultrafast -bf 2 -x264-params b-adapt=0 fuzz-h264/bframes.h264
ff "${src[@]}" -frames:v 2 -pix_fmt yuv420p -c:v libx264 -profile:v baseline -preset ultrafast fuzz-h264/baseline.h264
ff "${src[@]}" -frames:v 2 -pix_fmt yuv420p -c:v libx264 -preset ultrafast -flags +ildct+ilme -x264-params tff=1 fuzz-h264/interlaced.h264
ff "${src[@]}" -frames:v 3 -pix_fmt yuv420p -c:v libx265 -x265-params log-level=none:bframes=1 fuzz-hevc/bframes.hevc
ff "${src[@]}" -frames:v 1 -pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=none fuzz-hevc/10bit.hevc

ff "${src[@]}" -frames:v 2 -c:v libvpx -b:v 50k fuzz-ivf/vp8.ivf
ff "${src[@]}" -frames:v 2 -c:v libvpx-vp9 -b:v 50k fuzz-ivf/vp9.ivf

ff "${tone[@]}" -t 0.2 -c:a aac -b:a 16k fuzz-adts/mono.aac
ff "${tone[@]}" -t 0.1 -ac 2 -c:a aac -b:a 24k fuzz-adts/stereo.aac

# Parameter sets alone: the NAL units of the streams above, split at their start codes.
python3 - <<'PY'
import glob, os
def nals(data):
    i, out = 0, []
    starts = []
    while True:
        j = data.find(b"\x00\x00\x01", i)
        if j < 0: break
        starts.append(j + 3); i = j + 3
    for k, s in enumerate(starts):
        e = starts[k + 1] - 3 if k + 1 < len(starts) else len(data)
        out.append(data[s:e].rstrip(b"\x00"))
    return out
n = 0
for path, hevc in [(p, False) for p in sorted(glob.glob("fuzz-h264/*.h264"))] + [(p, True) for p in sorted(glob.glob("fuzz-hevc/*.hevc"))]:
    for nal in nals(open(path, "rb").read()):
        t = (nal[0] >> 1) & 0x3F if hevc else nal[0] & 0x1F
        if (hevc and t in (32, 33, 34)) or (not hevc and t in (7, 8)):
            name = f"fuzz-paramsets/{os.path.basename(path)}-{'hevc' if hevc else 'h264'}-{t}-{n}.nal"
            open(name, "wb").write(nal); n += 1
PY

# Decoder glue: a leading byte (bit 0: HEVC, bit 1: two threads, bits 2…: output format), then a
# stream; one whose picture size changes half way.
mkdir -p fuzz-decode
printf '\x00' | cat - fuzz-h264/baseline.h264 > fuzz-decode/h264-baseline.bin
printf '\x06' | cat - fuzz-h264/bframes.h264 > fuzz-decode/h264-bframes-2threads-rgba.bin
printf '\x10' | cat - fuzz-h264/interlaced.h264 > fuzz-decode/h264-interlaced-gray.bin
printf '\x01' | cat - fuzz-hevc/bframes.hevc > fuzz-decode/hevc-bframes.bin
printf '\x0b' | cat - fuzz-hevc/10bit.hevc > fuzz-decode/hevc-10bit-444.bin
ff -f lavfi -i testsrc=size=32x24:rate=25 -frames:v 2 -pix_fmt yuv420p -c:v libx264 -preset ultrafast /tmp/mg-seed-32x24.h264
{ printf '\x04'; cat fuzz-h264/baseline.h264 /tmp/mg-seed-32x24.h264; } > fuzz-decode/h264-size-change.bin
rm -f /tmp/mg-seed-32x24.h264

# File source: a byte choosing the extension (index into the harness's list: 0 mp4, 1 mov,
# 2 mkv, 3 webm, 4 ts, 5 flv, 6 avi, 7 ogg, 8 mp3, 9 wav, 10 aac, 11 h264, 12 hevc, 13 ivf,
# 14 y4m), a byte of mode bits (0 seek, 1 decode, 2–3 trim, 4 errors: skip), then the file:
# tiny files with a video and an audio stream in each container.
mkdir -p fuzz-filesrc
tmp=$(mktemp -d)
vid=(-f lavfi -i testsrc=size=16x16:rate=25 -f lavfi -i sine=frequency=440:sample_rate=8000 -frames:v 3 -t 0.12 -pix_fmt yuv420p)
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a aac -b:a 8k "$tmp/a.mp4"
ff "${vid[@]}" -c:v libx265 -x265-params log-level=none -c:a aac -b:a 8k -tag:v hvc1 "$tmp/a.mov"
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a libopus -b:a 6k -ar 48000 "$tmp/a.mkv"
ff "${vid[@]}" -c:v libvpx-vp9 -b:v 20k -c:a libopus -b:a 6k -ar 48000 "$tmp/a.webm"
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a aac -b:a 8k "$tmp/a.ts"
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a aac -b:a 8k "$tmp/a.flv"
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a libmp3lame -b:a 8k "$tmp/a.avi"
ff -f lavfi -i sine=frequency=440:sample_rate=8000 -t 0.1 -c:a libopus -b:a 6k -ar 48000 "$tmp/a.ogg"
ff -f lavfi -i sine=frequency=440:sample_rate=8000 -t 0.1 -c:a libmp3lame -b:a 8k "$tmp/a.mp3"
ff -f lavfi -i testsrc=size=16x16:rate=25 -frames:v 2 -c:v libx264 -preset ultrafast -bf 1 -frag_duration 40000 \
    -movflags +frag_keyframe+empty_moov+default_base_moof "$tmp/frag.mp4"
b() { printf "\\x$(printf %02x "$1")\\x$(printf %02x "$2")"; }
{ b 0 0; cat "$tmp/a.mp4"; } > fuzz-filesrc/mp4-h264-aac.bin
{ b 0 2; cat "$tmp/a.mp4"; } > fuzz-filesrc/mp4-h264-aac-decode.bin
{ b 0 7; cat "$tmp/frag.mp4"; } > fuzz-filesrc/mp4-fragmented-seek-decode-start.bin
{ b 1 2; cat "$tmp/a.mov"; } > fuzz-filesrc/mov-hevc-aac-decode.bin
{ b 2 8; cat "$tmp/a.mkv"; } > fuzz-filesrc/mkv-h264-opus-end.bin
{ b 3 2; cat "$tmp/a.webm"; } > fuzz-filesrc/webm-vp9-opus-decode.bin
{ b 4 12; cat "$tmp/a.ts"; } > fuzz-filesrc/ts-h264-adts-start-duration.bin
{ b 5 16; cat "$tmp/a.flv"; } > fuzz-filesrc/flv-h264-aac-skip.bin
# recordings joined with cat: the second part's clock 30 s on, then the first again (jumps)
ff "${vid[@]}" -c:v libx264 -preset ultrafast -c:a aac -b:a 8k -output_ts_offset 30 "$tmp/b.ts"
{ b 4 16; cat "$tmp/a.ts" "$tmp/b.ts" "$tmp/a.ts"; } > fuzz-filesrc/ts-joined-skip.bin
{ b 4 18; cat "$tmp/a.ts" "$tmp/b.ts" "$tmp/a.ts"; } > fuzz-filesrc/ts-joined-decode-skip.bin
{ b 6 2; cat "$tmp/a.avi"; } > fuzz-filesrc/avi-h264-mp3-decode.bin
# text subtitles: a SubRip and an ASS track beside the video (decode mode: into subtitlefile)
printf '1\n00:00:00,000 --> 00:00:00,080\n<i>a</i> {\\an8}b\n' > "$tmp/a.srt"
printf '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:00.08,Default,,0,0,0,,{\\b1}c\\Nd\n' > "$tmp/a.ass"
ff -f lavfi -i testsrc=size=16x16:rate=25 -i "$tmp/a.srt" -i "$tmp/a.ass" -map 0 -map 1 -map 2 -frames:v 3 -c:v libx264 -preset ultrafast -c:s copy "$tmp/s.mkv"
{ b 2 2; cat "$tmp/s.mkv"; } > fuzz-filesrc/mkv-h264-srt-ass-decode.bin
{ b 7 2; cat "$tmp/a.ogg"; } > fuzz-filesrc/ogg-opus-decode.bin
{ b 8 1; cat "$tmp/a.mp3"; } > fuzz-filesrc/mp3-seek.bin
{ b 9 2; cat fuzz-wav/s16.wav; } > fuzz-filesrc/wav-decode.bin
{ b 10 0; cat fuzz-adts/mono.aac; } > fuzz-filesrc/adts.bin
{ b 11 2; cat fuzz-h264/bframes.h264; } > fuzz-filesrc/h264-raw-decode.bin
{ b 12 0; cat fuzz-hevc/bframes.hevc; } > fuzz-filesrc/hevc-raw.bin
{ b 13 2; cat fuzz-ivf/vp8.ivf; } > fuzz-filesrc/ivf-vp8-decode.bin
{ b 14 2; cat fuzz-y4m/420.y4m; } > fuzz-filesrc/y4m-decode.bin

# Codec configuration records: a byte choosing the record (0 avcC, 1 hvcC, 2 Annex B parameter
# sets (bit 7: HEVC), 3 OpusHead, 4 AudioSpecificConfig, 5 ADTS, 6 VP9 level), then the record
# as the containers above store it.
mkdir -p fuzz-records
python3 - "$tmp" <<'PY'
import sys
tmp = sys.argv[1]
def box(data, name):
    """The payload of the first box called `name` (found by its type code)."""
    i = data.find(name.encode())
    size = int.from_bytes(data[i - 4:i], "big")
    return data[i + 4:i - 4 + size]
mp4, mov = open(f"{tmp}/a.mp4", "rb").read(), open(f"{tmp}/a.mov", "rb").read()
ogg = open(f"{tmp}/a.ogg", "rb").read()
out = {
    "avcC.bin": b"\x00" + box(mp4, "avcC"),
    "hvcC.bin": b"\x01" + box(mov, "hvcC"),
    "annexb-h264.bin": b"\x02" + open("fuzz-h264/baseline.h264", "rb").read()[:200],
    "annexb-hevc.bin": b"\x82" + open("fuzz-hevc/bframes.hevc", "rb").read()[:300],
    "opushead.bin": b"\x03" + ogg[ogg.find(b"OpusHead"):][:19],
    "opushead-family1.bin": b"\x03" + b"OpusHead\x01\x03\x38\x01\x80\xbb\x00\x00\x00\x00\x01\x02\x01\x00\x02\x01",
    "asc-lc-8k-mono.bin": b"\x04\x15\x88",
    "asc-he-explicit-rate.bin": b"\x04\x2f\x80\x1f\x40\x08\x80",
    "adts.bin": b"\x05" + open("fuzz-adts/mono.aac", "rb").read()[:64],
    "vp9-level-1080p30.bin": b"\x06" + (1920).to_bytes(2, "big") + (1080).to_bytes(2, "big") + (30).to_bytes(2, "big") + (1).to_bytes(2, "big"),
}
for name, data in out.items():
    open(f"fuzz-records/{name}", "wb").write(data)
PY
rm -rf "$tmp"

# Pictures: a byte choosing the extension (0 png, 1 jpg, 2 webp, 3 bmp, 4 tiff, 5 gif, 6 ppm,
# 7 tga), a byte of mode bits (0–2 imagesrc's format, 3 imageseq, 4–5 frames − 1), then the file.
mkdir -p fuzz-image
tmp=$(mktemp -d)
pic=(-f lavfi -i testsrc=size=16x12:rate=25 -frames:v 1)
ff "${pic[@]}" -pix_fmt rgba "$tmp/rgba.png"
ff "${pic[@]}" -pix_fmt pal8 "$tmp/pal8.png"
ff "${pic[@]}" -pix_fmt gray16be "$tmp/gray16.png"
ff "${pic[@]}" -pix_fmt ya8 "$tmp/ya8.png"
ff "${pic[@]}" -pix_fmt yuvj420p "$tmp/420.jpg"
ff "${pic[@]}" -pix_fmt yuvj444p "$tmp/444.jpg"
ff "${pic[@]}" -c:v libwebp -lossless 0 "$tmp/lossy.webp"
ff "${pic[@]}" -c:v libwebp -lossless 1 -pix_fmt bgra "$tmp/lossless.webp"
ff -f lavfi -i testsrc=size=16x12:rate=25 -frames:v 2 -c:v libwebp_anim -loop 0 "$tmp/anim.webp"
ff "${pic[@]}" -pix_fmt bgr24 "$tmp/a.bmp"
ff "${pic[@]}" -pix_fmt rgba -compression_algo lzw "$tmp/a.tiff"
ff -f lavfi -i testsrc=size=16x12:rate=25 -frames:v 2 "$tmp/a.gif"
ff "${pic[@]}" -pix_fmt rgb24 "$tmp/a.ppm"
ff "${pic[@]}" -pix_fmt bgra "$tmp/a.tga"
{ b 0 0; cat "$tmp/rgba.png"; } > fuzz-image/png-rgba.bin
{ b 0 9; cat "$tmp/pal8.png"; } > fuzz-image/png-pal8-imageseq.bin
{ b 0 3; cat "$tmp/gray16.png"; } > fuzz-image/png-gray16.bin
{ b 0 18; cat "$tmp/ya8.png"; } > fuzz-image/png-ya8-2frames.bin
{ b 1 2; cat "$tmp/420.jpg"; } > fuzz-image/jpg-420.bin
{ b 1 8; cat "$tmp/444.jpg"; } > fuzz-image/jpg-444-imageseq.bin
{ b 2 0; cat "$tmp/lossy.webp"; } > fuzz-image/webp-lossy.bin
{ b 2 9; cat "$tmp/lossless.webp"; } > fuzz-image/webp-lossless-imageseq.bin
{ b 2 0; cat "$tmp/anim.webp"; } > fuzz-image/webp-animated.bin
{ b 3 1; cat "$tmp/a.bmp"; } > fuzz-image/bmp.bin
{ b 4 8; cat "$tmp/a.tiff"; } > fuzz-image/tiff-lzw-imageseq.bin
{ b 5 16; cat "$tmp/a.gif"; } > fuzz-image/gif-2frames.bin
{ b 6 2; cat "$tmp/a.ppm"; } > fuzz-image/ppm.bin
{ b 7 0; cat "$tmp/a.tga"; } > fuzz-image/tga.bin
rm -rf "$tmp"
