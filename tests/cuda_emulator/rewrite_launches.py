#!/usr/bin/env python3
"""Turns a .cu file into C++ that the CUDA emulator compiles with the host compiler.

Each launch  kernel<T, U><<<grid, block[, shared[, stream]]>>>(args)  becomes
  ::dlab::emu::launch("kernel<T, U>", __FILE__, __LINE__, kernel<T, U>,
                      ::dlab::emu::LaunchConfig(grid, block[, shared[, stream]]), args)
and a #line directive keeps the original file name and line numbers in messages. Nothing else
changes: the emulator runs the kernels as written.

usage: rewrite_launches.py IN.cu OUT.cpp
"""
import sys


def matching(text, start, open_ch, close_ch):
    """Index of the bracket closing text[start] (which is open_ch)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
    raise SystemExit(f"unbalanced {open_ch}{close_ch} after offset {start}")


def kernel_start(text, end):
    """Start of the kernel expression that ends at text[end - 1] (a name, maybe with <template args>)."""
    i, depth = end, 0
    while i > 0:
        c = text[i - 1]
        if c == '>':
            depth += 1
        elif c == '<' and depth > 0:
            depth -= 1
        elif depth == 0 and not (c.isalnum() or c in '_:'):
            break
        i -= 1
    return i


def rewrite(text, path):
    out, pos = [f'#line 1 "{path}"\n'], 0
    while True:
        j = text.find('<<<', pos)
        if j < 0:
            out.append(text[pos:])
            return ''.join(out)
        name_end = j
        while name_end > 0 and text[name_end - 1].isspace():
            name_end -= 1
        k = kernel_start(text, name_end)
        name = text[k:name_end]
        if not name:
            raise SystemExit(f"{path}: a launch without a kernel name at offset {j}")
        m = text.find('>>>', j)
        config = text[j + 3:m]
        p = m + 3
        while text[p].isspace():
            p += 1
        if text[p] != '(':
            raise SystemExit(f"{path}: launch of {name} has no argument list")
        q = matching(text, p, '(', ')')
        args = text[p + 1:q]
        lines = text.count('\n', k, q + 1)   # keep the line count: later lines keep their numbers
        call = (f'::dlab::emu::launch("{name}", __FILE__, __LINE__, {name}, ::dlab::emu::LaunchConfig({config})'
                + (f', {args}' if args.strip() else '') + ')')
        out.append(text[pos:k])
        out.append(call.replace('\n', ' ') + '\n' * lines)
        pos = q + 1


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding='utf-8') as f:
        text = f.read()
    result = rewrite(text, src)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write(result)


if __name__ == '__main__':
    main()
