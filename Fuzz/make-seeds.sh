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
