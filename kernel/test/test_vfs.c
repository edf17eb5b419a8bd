/*
 * The file system: t_vfs (userland/test/t_vfs.c, the same checks the host
 * Linux passes in tests/sh/vfs-host.sh) as root and as uid 1000, and the
 * initramfs unpacker against bad archives, in the running kernel: each must
 * stop with its one-line error, keep what came before, and leave the
 * kernel running.
 */
#include "kernel/fs/initramfs.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/pmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/task.h"
#include "kernel/test/ktest.h"

static long run(uint32_t uid, int argc, char **argv)
{
	int status = 0;
	long pid = spawn_prog(argv[0], argc, argv);
	struct task_struct *t;

	if (pid < 0)
		return pid;
	t = find_task_by_pid((int)pid);
	if (uid) {
		t->cred.uid = t->cred.euid = t->cred.suid = t->cred.fsuid = uid;
		t->cred.gid = t->cred.egid = t->cred.sgid = t->cred.fsgid = uid;
		task_fixup_caps(t);
	}
	return do_wait((int)pid, 0, &status, 0, 0) < 0 ? -1 : status;
}

/* Also: every inode, name and page t_vfs used is back once it is gone. */
static enum ktest_result vfs_ring3_root(struct ktest_ctx *t)
{
	char *argv[] = {"t_vfs", "initramfs"};
	int inodes = vfs_inodes_in_use();
	uint64_t pages = pmm_free_count();
	long st = run(0, 2, argv);

	if (st != 0)
		return ktest_fail(t, "t_vfs as root: status 0x%lx", st);
	if (vfs_inodes_in_use() != inodes)
		return ktest_fail(t, "inodes in use: %d before, %d after", inodes,
				  vfs_inodes_in_use());
	if (pmm_free_count() != pages)
		return ktest_fail(t, "free pages: %lu before, %lu after", pages, pmm_free_count());
	return KTEST_PASS;
}
KTEST(vfs_ring3_root);

static enum ktest_result vfs_ring3_user(struct ktest_ctx *t)
{
	char *argv[] = {"t_vfs"};
	long st = run(1000, 1, argv);

	return st == 0 ? KTEST_PASS : ktest_fail(t, "t_vfs as uid 1000: status 0x%lx", st);
}
KTEST(vfs_ring3_user);

/* Appends one newc entry; returns the new length. */
static size_t put(char *buf, size_t off, const char *name, uint32_t mode, const char *data,
		  uint32_t size)
{
	size_t nlen = strlen(name) + 1;

	off += (size_t)ksnprintf(buf + off, 111,
				 "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x", 1,
				 mode, 0, 0, 1, 0, size, 0, 0, 0, 0, (uint32_t)nlen, 0);
	memcpy(buf + off, name, nlen);
	off = (off + nlen + 3) & ~(size_t)3;
	if (data)
		memcpy(buf + off, data, size);
	return (off + size + 3) & ~(size_t)3;
}

static bool exists(const char *path)
{
	struct inode *ino;

	if (path_lookup(root_inode, path, 0, &ino))
		return false;
	iput(ino);
	return true;
}

static char arch[2048];

static enum ktest_result initramfs_bad(struct ktest_ctx *t)
{
	size_t n, good;
	long rc;

	/* A directory and a file, then a header cut short. */
	n = put(arch, 0, "tmp/kt", S_IFDIR | 0755, 0, 0);
	n = put(arch, n, "tmp/kt/a", S_IFREG | 0644, "abc", 3);
	good = n;
	n = put(arch, n, "tmp/kt/b", S_IFREG | 0644, "x", 1);
	rc = initramfs_unpack(arch, good + 50);
	if (rc != -1 || !exists("/tmp/kt/a") || exists("/tmp/kt/b"))
		return ktest_fail(t, "truncated header: rc %ld", rc);
	/* Bad magic. */
	memcpy(arch + good, "070799", 6);
	if ((rc = initramfs_unpack(arch, n)) != -1 || exists("/tmp/kt/b"))
		return ktest_fail(t, "bad magic: rc %ld", rc);
	/* A '..' path. */
	n = put(arch, good, "tmp/kt/../escape", S_IFREG | 0644, "x", 1);
	if ((rc = initramfs_unpack(arch, n)) != -1 || exists("/tmp/escape"))
		return ktest_fail(t, "'..' path: rc %ld", rc);
	/* A size past the end. */
	n = put(arch, good, "tmp/kt/huge", S_IFREG | 0644, 0, 0);
	memcpy(arch + good + 6 + 6 * 8, "ffffffff", 8);
	if ((rc = initramfs_unpack(arch, n)) != -1 || exists("/tmp/kt/huge"))
		return ktest_fail(t, "huge size: rc %ld", rc);
	/* A name whose size leaves out its NUL. */
	n = put(arch, good, "tmp/kt/nonul", S_IFREG | 0644, 0, 0);
	memcpy(arch + good + 6 + 11 * 8, "0000000c", 8);
	if ((rc = initramfs_unpack(arch, n)) != -1 || exists("/tmp/kt/nonul"))
		return ktest_fail(t, "name without NUL: rc %ld", rc);
	/* Data after TRAILER!!!: the entries before it stay. */
	n = put(arch, good, "TRAILER!!!", 0, 0, 0);
	n = put(arch, n, "tmp/kt/late", S_IFREG | 0644, "x", 1);
	if ((rc = initramfs_unpack(arch, n)) != -1 || exists("/tmp/kt/late"))
		return ktest_fail(t, "after TRAILER!!!: rc %ld", rc);
	/* A well-formed one, with a symlink, unpacks every entry. */
	n = put(arch, good, "tmp/kt/ln", S_IFLNK | 0777, "a", 1);
	n = put(arch, n, "TRAILER!!!", 0, 0, 0);
	if ((rc = initramfs_unpack(arch, n)) != 3 || !exists("/tmp/kt/ln"))
		return ktest_fail(t, "good archive: rc %ld", rc);
	return KTEST_PASS;
}
KTEST(initramfs_bad);
