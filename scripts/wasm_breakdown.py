#!/usr/bin/env python3
"""Where the shipped wasm's code goes: sums function body sizes by module path.

Usage: scripts/wasm_breakdown.py FILE.wasm [DEPTH] [ROWS]
FILE must keep its name section (scripts/size-breakdown builds such a copy). Generic code is
counted under the crate that defines it (`core::slice::sort`), closures under the function
that holds them. Sizes are bytes of code before gzip.
"""
import re
import sys
from collections import Counter


def leb128(data, i):
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def read_module(data):
    """(number of imported functions, body sizes, {function index: name}, data bytes)."""
    i, imported, bodies, names, data_bytes = 8, 0, [], {}, 0
    while i < len(data):
        section, i = data[i], i + 1
        size, i = leb128(data, i)
        end = i + size
        if section == 2:  # imports
            count, j = leb128(data, i)
            for _ in range(count):
                for _ in range(2):  # module and field names
                    n, j = leb128(data, j)
                    j += n
                kind, j = data[j], j + 1
                if kind == 0:
                    imported += 1
                    _, j = leb128(data, j)
                elif kind == 1:
                    j += 1
                    flags, j = leb128(data, j)
                    _, j = leb128(data, j)
                    if flags & 1:
                        _, j = leb128(data, j)
                elif kind == 2:
                    flags, j = leb128(data, j)
                    _, j = leb128(data, j)
                    if flags & 1:
                        _, j = leb128(data, j)
                elif kind == 3:
                    j += 2
        elif section == 10:  # code
            count, j = leb128(data, i)
            for _ in range(count):
                n, j = leb128(data, j)
                bodies.append(n)
                j += n
        elif section == 11:
            data_bytes += size
        elif section == 0:  # custom: the "name" section
            n, j = leb128(data, i)
            if data[j:j + n] == b"name":
                j += n
                while j < end:
                    sub, j = data[j], j + 1
                    sub_size, j = leb128(data, j)
                    if sub == 1:
                        count, k = leb128(data, j)
                        for _ in range(count):
                            index, k = leb128(data, k)
                            n, k = leb128(data, k)
                            names[index] = data[k:k + n].decode("utf8", "replace")
                            k += n
                    j += sub_size
        i = end
    return imported, bodies, names, data_bytes


def module_path(name):
    """`<T as tachys::view::Render>::build` → `tachys::view::Render`; hashes and `[..]` dropped."""
    name = re.sub(r"\[[0-9a-f]+\]", "", name)
    name = re.sub(r"::h[0-9a-f]{16}$", "", name)
    name = name.lstrip("_<&")
    name = re.sub(r"^(mut |T as |F as |&T as )", "", name)
    return [p for p in name.split("::") if p]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    imported, bodies, names, data_bytes = read_module(data)
    if not names:
        sys.exit("no name section in this file: build it with scripts/size-breakdown")
    groups = Counter()
    for k, size in enumerate(bodies):
        path = module_path(names.get(k + imported, "?"))
        groups["::".join(path[:depth]) or "?"] += size
    total = sum(bodies)
    print(f"code {total:,} bytes in {len(bodies):,} functions; data {data_bytes:,} bytes")
    for group, size in groups.most_common(rows):
        print(f"{size:>10,}  {100 * size / total:5.1f} %  {group}")


if __name__ == "__main__":
    main()
