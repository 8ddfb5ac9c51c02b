#!/usr/bin/env python3
"""Writes real-content DNGs with a third-party writer (PiDNG, from PyPI) for the develop benchmark.

Each photograph of ../shared/data/demosaic/{kodak24,mcmaster18} is linearised (sRGB transfer
function undone), sampled through an RGGB colour filter array into 14-bit codes (black 512,
white 16383, in 16-bit samples) and written as an uncompressed DNG whose ColorMatrix1 is XYZ(D65) →
linear sRGB, so camera RGB is linear sRGB and a correct develop reproduces the photograph. The
benchmark develops each file with OpenCapture and with LibRaw's dcraw_emu, fits away each tool's
tone curve, and compares with the original photograph.

With --large, it writes one 12 MP DNG instead (4000×3000): the 24 Kodak crops tiled 8 × 6 (each used twice, the
second time mirrored), a real-content file the size of a phone's photo for timing develops end to end.

usage: make-third-party-dngs.py [--large] DATA_DIR OUT_DIR    (prints one line per file: DNG path, reference path)
"""
import glob
import os
import sys

import numpy as np
from PIL import Image
from pidng.core import RAW2DNG
from pidng.defs import CalibrationIlluminant, CFAPattern, DNGVersion, PhotometricInterpretation
from pidng.dng import DNGTags, Tag

BLACK, WHITE = 512, 16383
# XYZ (D65) → linear sRGB (IEC 61966-2-1), as DNG's ColorMatrix1 (XYZ → camera) with camera = sRGB.
XYZ_TO_SRGB = [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]


def linearise(v):
    v = v / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def rational(x):
    return [int(round(x * 10000)), 10000]


def write(reference, destination):
    rgb = linearise(np.asarray(Image.open(reference).convert("RGB")).astype(np.float64))
    h, w = rgb.shape[0] & ~1, rgb.shape[1] & ~1
    rgb = rgb[:h, :w]
    mosaic = np.empty((h, w))
    mosaic[0::2, 0::2] = rgb[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = rgb[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = rgb[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = rgb[1::2, 1::2, 2]
    codes = np.clip(np.round(BLACK + mosaic * (WHITE - BLACK)), 0, WHITE).astype(np.uint16)

    t = DNGTags()
    t.set(Tag.ImageWidth, w)
    t.set(Tag.ImageLength, h)
    t.set(Tag.TileWidth, w)
    t.set(Tag.TileLength, h)
    t.set(Tag.Orientation, 1)
    t.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
    t.set(Tag.SamplesPerPixel, 1)
    t.set(Tag.BitsPerSample, 16)
    t.set(Tag.CFARepeatPatternDim, [2, 2])
    t.set(Tag.CFAPattern, CFAPattern.RGGB)
    t.set(Tag.BlackLevel, BLACK)
    t.set(Tag.WhiteLevel, WHITE)
    t.set(Tag.ColorMatrix1, [rational(v) for row in XYZ_TO_SRGB for v in row])
    t.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
    t.set(Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]])
    t.set(Tag.BaselineExposure, [[0, 100]])
    t.set(Tag.Make, "PiDNG")
    t.set(Tag.Model, "Kodak and McMaster photographs")
    t.set(Tag.UniqueCameraModel, "PiDNG test")
    t.set(Tag.DNGVersion, DNGVersion.V1_4)
    t.set(Tag.DNGBackwardVersion, DNGVersion.V1_2)
    t.set(Tag.PreviewColorSpace, 1)

    converter = RAW2DNG()
    base = destination[:-4] if destination.endswith(".dng") else destination
    converter.options(t, path="", compress=False)
    converter.convert(codes, filename=base)


def large(data, out):
    tiles = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(glob.glob(os.path.join(data, "demosaic", "kodak24", "*")))]
    if len(tiles) < 24 or any(t.shape[:2] != (500, 500) for t in tiles):
        sys.exit("the 24 Kodak crops of 500 × 500 are needed")
    rows = []
    for r in range(6):
        row = [tiles[(r * 8 + c) % 24] if r < 3 else tiles[(r * 8 + c) % 24][:, ::-1] for c in range(8)]
        rows.append(np.concatenate(row, axis=1))
    reference = os.path.join(out, "large-kodak-12mp.png")
    destination = os.path.join(out, "large-kodak-12mp.dng")
    if not os.path.exists(destination):
        Image.fromarray(np.concatenate(rows, axis=0)).save(reference)
        write(reference, destination)
    print(f"{destination}\t{reference}")


def main():
    arguments = [a for a in sys.argv[1:] if a != "--large"]
    if len(arguments) != 2:
        sys.exit(__doc__)
    data, out = arguments
    os.makedirs(out, exist_ok=True)
    if "--large" in sys.argv[1:]:
        large(data, out)
        return
    for collection in ("kodak24", "mcmaster18"):
        for reference in sorted(glob.glob(os.path.join(data, "demosaic", collection, "*"))):
            name = os.path.splitext(os.path.basename(reference))[0]
            destination = os.path.join(out, f"{collection}-{name}.dng")
            if not os.path.exists(destination):
                write(reference, destination)
            print(f"{destination}\t{reference}")


if __name__ == "__main__":
    main()
