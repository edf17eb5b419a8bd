/*
 * exec from the file system, after Linux's open_exec (fs/exec.c),
 * load_script (fs/binfmt_script.c) and load_elf_binary's PT_INTERP part
 * (fs/binfmt_elf.c): the task layer below gets the images ready to load.
 *
 * open_exec: the path is walked from the cwd following symlinks (ENOENT,
 * ENOTDIR, ELOOP, ENAMETOOLONG, EACCES of the walk); the file must be a
 * regular ramfs file (else EACCES: a directory, a device, a /proc file) the
 * caller may execute (MAY_EXEC: EACCES, and root too when no x bit is set
 * at all).  Not done: setuid/setgid bits (the credentials do not change),
 * ETXTBSY (no deny_write_access: a write to a running program's file shows in
 * the pages it has not touched yet, as with any private file mapping).
 *
 * Programs by name: a bare NAME ("t_nop") the cwd does not have is
 * /bin/NAME, where the initramfs installs the project's programs
 * (userland/) and the Linux test programs (tests/linux/); not Linux's
 * execve, which walks a bare name from the cwd only: it keeps what a name
 * meant when the programs were built into the kernel (none is any more).
 *
 * #! (binfmt_script, Linux 6.6 rules): the first line of at most
 * BINPRM_BUF_SIZE - 1 bytes (256 since 5.0, 128 in 2.6.29), trailing blanks
 * cut, names the interpreter and
 * at most one argument (the rest of the line, blanks inside kept); argv
 * becomes {interpreter, [argument,] path of the script, argv[1]...}, the
 * interpreter is walked from the cwd like the script.  AT_EXECFN and the
 * comm stay the script's name; /proc/<pid>/exe is the interpreter's file.
 * A first line with no newline in the buffer whose interpreter path runs to
 * the buffer's end is ENOEXEC (5.0+: the path would be truncated; 2.6.29
 * cut it and ran whatever the cut name found).
 * Depth: 5 scripts in a chain run, the sixth gives ELOOP (Linux 6.6's
 * exec_binprm: depth > 5; 2.6.29 gave ENOEXEC at the same depth).
 *
 * PT_INTERP: the interpreter's path is walked from the cwd as open_exec
 * does (a missing one: ENOENT, as Linux, with a line on the console here).
 */
#include "kernel/fs/filemap.h"
#include "kernel/fs/names.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/uapi/aslrbench.h"

#define BINPRM_BUF_SIZE	 256
#define SCRIPT_DEPTH_MAX 5 /* exec_binprm: depth > 5 is -ELOOP */

_Static_assert(SCRIPT_DEPTH_MAX *BINPRM_BUF_SIZE <= PATH_MAX, "the #! lines fit a name buffer");

static char *find_char(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return (char *)s;
	return 0;
}

/* open_exec's walk; a bare NAME the cwd does not have is looked up as /bin/NAME. */
static int lookup_exec(const char *path, struct inode **ino)
{
	size_t n = strlen(path);
	int rc = path_lookup(0, path, LOOKUP_FOLLOW, ino);
	char *bin;

	if (rc != -ENOENT || find_char(path, '/') || 5 + n >= PATH_MAX)
		return rc;
	if (!(bin = __getname()))
		return -ENOMEM;
	memcpy(bin, "/bin/", 5);
	memcpy(bin + 5, path, n + 1);
	rc = path_lookup(0, bin, LOOKUP_FOLLOW, ino);
	__putname(bin);
	return rc;
}

static int open_exec(const char *path, struct inode **ino, struct exec_file *f)
{
	int rc = lookup_exec(path, ino);

	*f = (struct exec_file){0, 0, 0, 0, 0};
	if (rc)
		return rc;
	if (!S_ISREG((*ino)->mode) || !(*ino)->ramfs)
		rc = -EACCES;
	else
		rc = inode_permission(*ino, MAY_EXEC);
	if (rc) {
		iput(*ino);
		*ino = 0;
		return rc;
	}
	*f = (struct exec_file){(const uint8_t *)(*ino)->ram.data, (*ino)->size, *ino, 0, 0};
	return 0;
}

/*
 * load_script's parse of buf (the file's first bytes): *name and *arg
 * (NULL: none) point into out.  -ENOEXEC when no interpreter is named.
 */
static bool is_blank(uint8_t c)
{
	return c == ' ' || c == '\t';
}

/*
 * Linux 6.6 load_script without a newline in the buffer: the interpreter's
 * path must end (a blank or NUL; bytes past the file read as NUL) before
 * the buffer does, else it was cut.
 */
static bool shebang_cut(const uint8_t *img, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (img[i] == '\n')
			return false;
	for (i = 2; i < n && is_blank(img[i]); i++)
		;
	for (; i < BINPRM_BUF_SIZE; i++)
		if (i >= n || is_blank(img[i]) || !img[i])
			return false;
	return true;
}

static int parse_shebang(const uint8_t *img, uint64_t size, char *out, char **name, char **arg)
{
	uint64_t n = size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE;
	char *cp;

	if (shebang_cut(img, n))
		return -ENOEXEC;

	memcpy(out, img, n);
	out[n < BINPRM_BUF_SIZE ? n : BINPRM_BUF_SIZE - 1] = '\0';
	cp = find_char(out, '\n');
	if (!cp)
		cp = out + strlen(out);
	*cp = '\0';
	while (cp > out) {
		cp--;
		if (*cp != ' ' && *cp != '\t')
			break;
		*cp = '\0';
	}
	for (cp = out + 2; *cp == ' ' || *cp == '\t'; cp++)
		;
	if (!*cp)
		return -ENOEXEC;
	*name = cp;
	*arg = 0;
	while (*cp && *cp != ' ' && *cp != '\t')
		cp++;
	while (*cp == ' ' || *cp == '\t')
		*cp++ = '\0';
	if (*cp)
		*arg = cp;
	return 0;
}

/* Replaces argv[0] by the strings ins (n of them, 0..3): argv/envp move up. */
static int splice_argv(char **ptrs, int room, int *argc, int envc, char **ins, int n)
{
	int drop = *argc > 0 ? 1 : 0, shift = n - drop;

	if (*argc + envc + shift > room)
		return -E2BIG;
	memmove(ptrs + drop + shift, ptrs + drop, (size_t)(*argc - drop + envc) * sizeof(*ptrs));
	for (int i = 0; i < n; i++)
		ptrs[i] = ins[i];
	*argc += shift;
	return 0;
}

/*
 * The file open for reading (FMODE_EXEC needs no read permission), for the
 * loader's file-backed regions; they take their own references.
 */
static int open_vm_file(struct inode *ino, struct exec_file *f)
{
	struct file *file;
	long rc = vfs_open_inode(ino, O_RDONLY, &file);

	if (rc)
		return (int)rc;
	f->vm_ops = &file_vm_ops;
	f->vm_file = file;
	return 0;
}

static void put_vm_file(struct exec_file *f)
{
	if (f->vm_file)
		file_put(f->vm_file);
	f->vm_file = 0;
	f->vm_ops = 0;
}

void exec_release(struct exec_ctx *c)
{
	put_vm_file(&c->req.prog);
	put_vm_file(&c->req.interp);
	if (c->prog_ino)
		iput(c->prog_ino);
	if (c->interp_ino)
		iput(c->interp_ino);
	c->prog_ino = c->interp_ino = 0;
}

/* PT_INTERP of the resolved program: open it as open_exec does. */
static int open_interp(struct exec_ctx *c)
{
	struct elf_info ei;
	const char *name;
	int rc;

	/*
	 * Not an ELF, or a bad one: the task layer's elf_check says why.
	 */
	if (!c->prog_ino || elf_check(c->req.prog.image, c->req.prog.size, 0, &ei) ||
	    !ei.interp_len)
		return 0;
	name = (const char *)c->req.prog.image + ei.interp_off;
	rc = path_lookup(0, name, LOOKUP_FOLLOW, &c->interp_ino);
	if (!rc && (!S_ISREG(c->interp_ino->mode) || !c->interp_ino->ramfs))
		rc = -EACCES;
	else if (!rc)
		rc = inode_permission(c->interp_ino, MAY_EXEC);
	if (rc) {
		if (c->interp_ino)
			iput(c->interp_ino);
		c->interp_ino = 0;
		kprintf("exec %s: cannot open its interpreter (PT_INTERP) %s: error %d\n",
			c->req.filename, name, -rc);
		return rc;
	}
	c->req.interp = (struct exec_file){(const uint8_t *)c->interp_ino->ram.data,
					   c->interp_ino->size, c->interp_ino, 0, 0};
	return open_vm_file(c->interp_ino, &c->req.interp);
}

int exec_prepare(const char *filename, char **ptrs, int room, int argc, int envc,
		 struct exec_ctx *c)
{
	const char *path = filename;
	int rc;

	memset(c, 0, sizeof(*c));
	for (int depth = 0;; depth++) {
		const uint8_t *img;
		char *name, *arg, *ins[3];
		int n = 0;

		if ((rc = open_exec(path, &c->prog_ino, &c->req.prog)))
			return rc;
		img = c->req.prog.image;
		if (c->req.prog.size < 2 || img[0] != '#' || img[1] != '!')
			break;
		if (depth == SCRIPT_DEPTH_MAX) {
			exec_release(c);
			return -ELOOP;
		}
		if (!c->scripts && !(c->scripts = __getname())) {
			exec_release(c);
			return -ENOMEM;
		}
		rc = parse_shebang(img, c->req.prog.size, c->scripts + depth * BINPRM_BUF_SIZE,
				   &name, &arg);
		exec_release(c);
		if (rc)
			return rc;
		ins[n++] = name;
		if (arg)
			ins[n++] = arg;
		ins[n++] = (char *)path; /* bprm->interp: this level's file */
		if ((rc = splice_argv(ptrs, room, &argc, envc, ins, n)))
			return rc;
		path = name;
	}
	if (c->prog_ino && (rc = open_vm_file(c->prog_ino, &c->req.prog))) {
		exec_release(c);
		return rc;
	}
	c->req.filename = filename;
	c->req.argc = argc;
	c->req.envc = envc;
	c->req.argv = ptrs;
	c->req.envp = ptrs + argc;
	if ((rc = open_interp(c)))
		exec_release(c);
	return rc;
}

/* exec_prepare, then start (do_execve_req or do_spawn_req), then exec_release. */
static long exec_with(long (*start)(const struct exec_request *), const char *filename, char **ptrs,
		      int room, int argc, int envc)
{
	struct exec_ctx c;
	long rc = exec_prepare(filename, ptrs, room, argc, envc, &c);

	if (!rc) {
		rc = start(&c.req);
		exec_release(&c);
	}
	__putname(c.scripts); /* after start: argv points into it */
	return rc;
}

long exec_file(const char *filename, char **ptrs, int room, int argc, int envc)
{
	return exec_with(do_execve_req, filename, ptrs, room, argc, envc);
}

long spawn_file(const char *filename, char **ptrs, int room, int argc, int envc)
{
	return exec_with(do_spawn_req, filename, ptrs, room, argc, envc);
}

/* spawn_prog's argv: its own page of pointers, with room for a #! chain's. */
#define PROG_PTRS_MAX ((int)(PATH_MAX / sizeof(char *)))

long spawn_prog(const char *name, int argc, char *const argv[])
{
	const char *dir = !strcmp(name, "init") ? "/sbin/" : "/bin/";
	size_t n = strlen(name), d = strlen(dir);
	struct task_struct *p;
	char *path, **ptrs;
	long pid;

	if (argc < 1 || argc > PROG_PTRS_MAX - 3 * SCRIPT_DEPTH_MAX || !n)
		return -EINVAL;
	if (find_char(name, '/'))
		d = 0;
	if (d + n >= PATH_MAX)
		return -ENAMETOOLONG;
	path = __getname();
	ptrs = (char **)__getname();
	if (!path || !ptrs) {
		__putname(path);
		__putname((char *)ptrs);
		return -ENOMEM;
	}
	memcpy(path, dir, d);
	memcpy(path + d, name, n + 1);
	memcpy(ptrs, argv, (size_t)argc * sizeof(*ptrs));
	pid = spawn_file(path, ptrs, PROG_PTRS_MAX, argc, 0);
	__putname(path);
	__putname((char *)ptrs);
	/* A program the kernel starts may run on every CPU, wherever its caller is pinned. */
	if (pid > 0 && (p = find_task_by_pid((int)pid)))
		p->cpus_allowed = sched_cpus_active;
	return pid;
}
