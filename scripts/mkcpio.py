#!/usr/bin/env python3
"""Usage: mkcpio.py OUT.cpio [--dir DIR] [--base OLD.cpio] [--add HOST[=IMAGE]]...
       mkcpio.py --list ARCHIVE

Writes a newc cpio archive (the initramfs format of Linux's
Documentation/driver-api/early-userspace/buffer-format.rst) reproducibly.

--dir DIR        DIR's tree becomes the archive's root (DIR itself is not an entry)
--base OLD.cpio  start from the entries of an existing archive
--add HOST=IMAGE a host file or directory (recursively) at IMAGE (default /bin/NAME);
                 later entries replace earlier ones of the same path
--keep-owners    keep the files' uid, gid and mode bits (default: 0:0, and 0755 for
                 directories and executables, 0644 for other files)
--list ARCHIVE   print "mode uid gid size path" per entry and exit

Reproducible: entries sorted by path (parents first), inode numbers assigned
in that order, every mtime SOURCE_DATE_EPOCH (default 0).  Hard links within
a tree share an inode number; the data travels with the first of them, as
Linux's gen_init_cpio writes it (the kernel links the later names to it).
"""
import os
import stat
import sys

MAGIC = b"070701"


def die(msg, status=1):
    print(f"mkcpio: {msg}", file=sys.stderr)
    sys.exit(status)


def parse(data):
    """Entries of an existing archive: {path: (mode, uid, gid, nlink, ino, body)}."""
    out, off = {}, 0
    while off + 110 <= len(data):
        h = data[off:off + 110]
        if h[:6] not in (b"070701", b"070702"):
            die(f"base archive: no newc magic at offset {off}")
        f = [int(h[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        name_end = off + 110 + f[11]
        name = data[off + 110:name_end - 1].decode("utf-8", "surrogateescape")
        body_off = (name_end + 3) & ~3
        body = data[body_off:body_off + f[6]]
        off = (body_off + f[6] + 3) & ~3
        if name == "TRAILER!!!":
            break
        out["/" + name.lstrip("/")] = (f[1], f[2], f[3], f[4], f[0], body)
    return out


def add_tree(entries, host, image, keep, links):
    st = os.lstat(host)
    uid, gid = (st.st_uid, st.st_gid) if keep else (0, 0)
    mode = st.st_mode
    if not keep:
        # Not the checkout's umask: 0755 for directories and executables, 0644 else.
        perm = 0o777 if stat.S_ISLNK(mode) else 0o755 if stat.S_ISDIR(mode) or mode & 0o111 else 0o644
        mode = stat.S_IFMT(mode) | perm
    body = b""
    if stat.S_ISLNK(st.st_mode):
        body = os.readlink(host).encode("utf-8", "surrogateescape")
    elif stat.S_ISREG(st.st_mode):
        with open(host, "rb") as fh:
            body = fh.read()
    elif not stat.S_ISDIR(st.st_mode):
        die(f"{host}: only directories, regular files and symlinks go into the initramfs")
    key = None
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        key = (st.st_dev, st.st_ino)
        links.setdefault(key, []).append(image)
    if image != "/":
        entries[image] = (mode, uid, gid, 1, key, body)
    if stat.S_ISDIR(st.st_mode):
        for name in sorted(os.listdir(host)):
            add_tree(entries, os.path.join(host, name), image.rstrip("/") + "/" + name, keep, links)


def write(out, entries, mtime):
    chunks, ino = [], 0
    groups = {}
    for path in sorted(entries, key=lambda p: p.split("/")):
        mode, uid, gid, _, key, body = entries[path]
        ino += 1
        nlink = 2 if stat.S_ISDIR(mode) else 1
        if key is not None:
            first = groups.setdefault(key, (ino, []))
            first[1].append(path)
            this_ino = first[0]
            if len(first[1]) > 1:
                body = b""
            nlink = sum(1 for e in entries.values() if e[4] == key)
        else:
            this_ino = ino
        chunks.append(entry(path.lstrip("/"), this_ino, mode, uid, gid, nlink, mtime, body))
    chunks.append(entry("TRAILER!!!", 0, 0, 0, 0, 1, 0, b""))
    blob = b"".join(chunks)
    blob += b"\0" * (-len(blob) % 512)
    with open(out, "wb") as fh:
        fh.write(blob)


def entry(name, ino, mode, uid, gid, nlink, mtime, body):
    nb = name.encode("utf-8", "surrogateescape") + b"\0"
    fields = [ino, mode, uid, gid, nlink, mtime, len(body), 0, 1, 0, 0, len(nb), 0]
    hdr = MAGIC + b"".join(b"%08X" % v for v in fields) + nb
    hdr += b"\0" * (-len(hdr) % 4)
    return hdr + body + b"\0" * (-len(body) % 4)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv[0] == "--list" and len(argv) == 2:
        with open(argv[1], "rb") as fh:
            for path, (mode, uid, gid, _, _, body) in parse(fh.read()).items():
                print(f"{mode:o} {uid} {gid} {len(body)} {path}")
        return 0
    if argv[0].startswith("-"):
        die(f"unknown option {argv[0]} (see --help)", 2)
    out, entries, keep, links = argv[0], {}, False, {}
    adds, i = [], 1
    while i < len(argv):
        a = argv[i]
        if a == "--keep-owners":
            keep = True
            i += 1
            continue
        if i + 1 >= len(argv):
            die(f"{a} needs a value", 2)
        adds.append((a, argv[i + 1]))
        i += 2
    for opt, val in adds:
        if opt == "--base":
            with open(val, "rb") as fh:
                for path, (mode, uid, gid, nlink, ino, body) in parse(fh.read()).items():
                    key = ("base", ino) if nlink > 1 and stat.S_ISREG(mode) else None
                    entries[path] = (mode, uid, gid, nlink, key, body)
        elif opt == "--dir":
            if not os.path.isdir(val):
                die(f"--dir {val}: not a directory")
            add_tree(entries, val, "/", keep, links)
        elif opt == "--add":
            host, _, image = val.partition("=")
            if not os.path.lexists(host):
                die(f"--add {host}: no such file")
            image = image or "/bin/" + os.path.basename(host.rstrip("/"))
            if not image.startswith("/") or ".." in image.split("/"):
                die(f"--add {val}: the image path must be absolute, without '..'")
            image = "/" + image.strip("/")
            parts = image.split("/")[1:-1]
            for k in range(len(parts)):
                d = "/" + "/".join(parts[:k + 1])
                entries.setdefault(d, (stat.S_IFDIR | 0o755, 0, 0, 2, None, b""))
            add_tree(entries, host, image, keep, links)
        else:
            die(f"unknown option {opt} (see --help)", 2)
    write(out, entries, int(os.environ.get("SOURCE_DATE_EPOCH", "0")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
