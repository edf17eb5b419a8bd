#!/usr/bin/env python3
"""Where a hung guest's CPUs are: run-qemu.sh calls this just before its
timeout kills QEMU, so a run that hangs says what each CPU was doing.

Usage: scripts/hang-dump.py QMP_SOCKET KERNEL_ELF

Through QEMU's QMP socket (the human monitor's commands), twice a second
apart, for every vCPU:
its ring, RIP, interrupt flag and CR3, the function RIP is in, and the
kernel functions whose addresses are on its stack (return addresses and
stale words alike: a hint, not an unwinder's backtrace); then which CPU
holds the big kernel lock.  The symbols come
from KERNEL_ELF (`nm`), which must be the kernel the image carries
(build/kernel.elf for build/aslrbench.iso).

Why: an intermittent hang under load left nothing but the last serial
line.  A CPU spinning for a lock, halted with nothing to run, or looping
in ring 3 each look different here.
"""
import bisect
import json
import re
import socket
import subprocess
import sys
import time

STACK_WORDS = 64


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(path)
        self.buf = b""
        self.read()  # the greeting
        self.call("qmp_capabilities")

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("QMP socket closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, cmd, **args):
        self.sock.sendall(json.dumps({"execute": cmd, "arguments": args}).encode() + b"\n")
        while True:
            msg = self.read()
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise RuntimeError(msg["error"].get("desc", "QMP error"))

    def hmp(self, line):
        return self.call("human-monitor-command", **{"command-line": line})


def symbols(elf):
    """Sorted (address, name) of the kernel's functions, where text ends
    (kernel.ld), and where the big kernel lock's word is."""
    run = subprocess.run(["nm", "-n", elf], capture_output=True, text=True, check=False)
    syms, text_end, lock = [], 0, None
    out = run.stdout if run.returncode == 0 else ""
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        if parts[1] in "Tt":
            syms.append((int(parts[0], 16), parts[2]))
        elif parts[2] == "__text_end":
            text_end = int(parts[0], 16)
        elif parts[2] == "kernel_flag":
            lock = int(parts[0], 16)
    return syms, text_end, lock


def lock_owner(q, lock):
    """kernel_lock.c's kernel_flag: the CPU that holds the big lock."""
    if lock is None:
        return
    m = re.search(r":\s*0x([0-9a-f]+)", q.hmp("x/1wx 0x%x" % lock))
    if m:
        owner = int(m.group(1), 16)
        print("hang-dump: the big kernel lock: %s" % (
            "free" if owner == 0xFFFFFFFF else "held by CPU %d" % owner))


def lookup(syms, addrs, text_end, value):
    """'name+0xoff' for an address in kernel text, else None."""
    if not syms or value < syms[0][0] or value >= text_end:
        return None
    i = bisect.bisect_right(addrs, value) - 1
    return "%s+0x%x" % (syms[i][1], value - syms[i][0])


def reg(text, name):
    m = re.search(r"\b%s=([0-9a-fA-F]+)" % name, text)
    return int(m.group(1), 16) if m else None


def split_cpus(text):
    """`info registers -a`: one block per CPU, headed "CPU#N"."""
    blocks = {}
    text = text.replace("\r\n", "\n")
    for m in re.finditer(r"CPU#(\d+)\n(.*?)(?=\nCPU#\d+\n|\Z)", text, re.S):
        blocks[int(m.group(1))] = m.group(2)
    return blocks


def dump_cpu(q, index, regs, syms, addrs, text_end):
    """One CPU's line.  Its stack is read through CPU 0's page tables (the
    monitor's own CPU), which is right for a kernel stack: every address
    space shares the kernel half."""
    rip, rsp, rfl = reg(regs, "RIP"), reg(regs, "RSP"), reg(regs, "RFL")
    cr3 = reg(regs, "CR3")
    m = re.search(r"\bCPL=(\d)", regs)
    cpl = int(m.group(1)) if m else None
    halted = re.search(r"\bHLT=1\b", regs) is not None
    if rip is None or rsp is None:
        print("hang-dump: CPU %d: no registers" % index)
        return
    where = lookup(syms, addrs, text_end, rip) or "0x%x" % rip
    state = ", halted" if halted else ""
    print("hang-dump: CPU %d: ring %s at %s, IF=%d, CR3=0x%x%s" % (
        index, cpl, where, (rfl or 0) >> 9 & 1, cr3 or 0, state))
    if cpl != 0 or rsp < 0xffff800000000000:
        return
    words = re.findall(r"0x([0-9a-f]{16})", q.hmp("x/%dgx 0x%x" % (STACK_WORDS, rsp)))
    found = [lookup(syms, addrs, text_end, int(w, 16)) for w in words]
    found = [f for f in found if f]
    if found:
        print("hang-dump:   kernel text on its stack: " + " < ".join(found))


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) != 3 or sys.argv[1].startswith("-"):
        sys.exit(__doc__.split("\n\n")[1])
    syms, text_end, lock = symbols(sys.argv[2])
    addrs = [a for a, _ in syms]
    q = Qmp(sys.argv[1])
    # Twice, a second apart: a CPU that moved was not stuck where the first saw it.
    for snap in (1, 2):
        q.call("stop")
        blocks = split_cpus(q.hmp("info registers -a"))
        print("hang-dump: snapshot %d: %d CPUs, symbols from %s" % (
            snap, len(blocks), sys.argv[2] if syms else "nowhere"))
        for index in sorted(blocks):
            dump_cpu(q, index, blocks[index], syms, addrs, text_end)
        lock_owner(q, lock)
        q.call("cont")
        if snap == 1:
            time.sleep(1)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ConnectionError, RuntimeError) as e:
        sys.exit("hang-dump: %s" % e)
