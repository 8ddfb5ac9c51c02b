#!/usr/bin/env bash
# Installs the Debian packages OpenCapture builds and tests with, if any is missing.
set -euo pipefail
packages=(
  pkg-config
  libjpeg62-turbo-dev      # JPEG encode/decode (libjpeg-turbo)
  libpng-dev               # PNG for test images and the fuse command
  libtiff-dev              # TIFF files (uncompressed photos, McMaster test set)
  libimage-exiftool-perl   # tests check written files with exiftool
  libraw-dev               # reading camera raw and DNG files (LibRaw)
  libraw-bin               # raw-identify and dcraw_emu check written DNGs in tests
  libheif-dev              # reading and decoding HEIF/HEIC files (libheif)
  libx265-dev              # HEVC encoding of HEIC tiles and thumbnails (x265)
  libavformat-dev          # movies: QuickTime muxing (libavformat)
  libavcodec-dev           # movies: H.264 (libx264), HEVC (libx265) and AAC encoding (libavcodec)
  ffmpeg                   # ffprobe checks written movies in tests and benchmarks
  libssl-dev               # SHA-256 of the photo library's stored files (libcrypto)
  libsqlite3-dev           # the photo library's database (SQLite, through GRDB)
  libheif-examples         # heif-info and heif-enc check written HEICs in tests and benchmarks
  opencv-doc               # bench group stereo: the Middlebury Aloe pair and its ground truth
  python3-opencv           # bench group stereo: the OpenCV StereoSGBM anchor
  libjpeg-turbo-progs      # bench anchor: cjpeg (first photo against a plain JPEG encode)
  enfuse                   # bench anchor: enfuse (the fuse command against it)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
