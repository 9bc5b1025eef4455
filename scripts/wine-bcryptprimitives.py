#!/usr/bin/env python3
"""Writes bcryptprimitives.dll for a Wine prefix that lacks it (Wine 8.0).

The Go runtime (1.22 and later) gets its random numbers from ProcessPrng in
bcryptprimitives.dll and stops at start without it ("bcryptprimitives.dll
not found"). Wine 8.0 has no such DLL. This one holds no code: its only
export, ProcessPrng, is forwarded to advapi32's SystemFunction036
(RtlGenRandom), which takes the same buffer and length and reports success
the same way. Usage: wine-bcryptprimitives.py OUTPUT.dll
"""
import struct
import sys

SECTION_RVA = 0x1000
FILE_ALIGN = 0x200


def export_section():
    dll_name = b"bcryptprimitives.dll\0"
    func_name = b"ProcessPrng\0"
    forward = b"advapi32.SystemFunction036\0"
    dir_size = 40
    eat = SECTION_RVA + dir_size  # one function RVA
    names = eat + 4  # one name RVA
    ordinals = names + 4  # one ordinal
    strings = ordinals + 2
    name_rva = strings
    func_rva = name_rva + len(dll_name)
    fwd_rva = func_rva + len(func_name)
    # IMAGE_EXPORT_DIRECTORY: one function, exported by name.
    body = struct.pack("<IIHHIIIIIII", 0, 0, 0, 0, name_rva, 1, 1, 1, eat, names, ordinals)
    assert len(body) == dir_size
    body += struct.pack("<I", fwd_rva)  # the export is a forwarder: its RVA is inside the directory
    body += struct.pack("<I", func_rva)
    body += struct.pack("<H", 0)
    body += dll_name + func_name + forward
    return body


def main():
    out = sys.argv[1]
    sec = export_section()
    raw = sec + b"\0" * (-len(sec) % FILE_ALIGN)
    dos = b"MZ" + b"\0" * 58 + struct.pack("<I", 0x40)
    coff = struct.pack("<HHIIIHH", 0x8664, 1, 0, 0, 0, 240, 0x2022)
    opt = struct.pack("<HBBIIIII", 0x20B, 1, 0, 0, len(raw), 0, 0, SECTION_RVA)
    opt += struct.pack("<QII", 0x180000000, 0x1000, FILE_ALIGN)
    opt += struct.pack("<HHHHHHI", 6, 0, 0, 0, 6, 0, 0)
    opt += struct.pack("<IIIHH", SECTION_RVA + 0x1000, FILE_ALIGN, 0, 3, 0x100)
    opt += struct.pack("<QQQQII", 0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
    dirs = [(SECTION_RVA, len(sec))] + [(0, 0)] * 15
    opt += b"".join(struct.pack("<II", a, s) for a, s in dirs)
    assert len(opt) == 240
    section = struct.pack("<8sIIIIIIHHI", b".edata", len(sec), SECTION_RVA, len(raw), FILE_ALIGN, 0, 0, 0, 0, 0x40000040)
    head = dos + b"PE\0\0" + coff + opt + section
    head += b"\0" * (FILE_ALIGN - len(head))
    with open(out, "wb") as f:
        f.write(head + raw)


if __name__ == "__main__":
    main()
