/*
 * exec from the file system: a path resolved into an exec_request for the
 * task layer (the open_exec, binfmt_script and PT_INTERP parts of Linux's
 * fs/exec.c, fs/binfmt_script.c and fs/binfmt_elf.c).
 */
#ifndef KERNEL_SYSCALL_EXEC_FILE_H
#define KERNEL_SYSCALL_EXEC_FILE_H

#include "kernel/task/process.h"

struct inode;

/* One resolved exec; holds inode references until exec_release. */
struct exec_ctx {
	struct exec_request req;
	struct inode *prog_ino, *interp_ino;
	/*
	 * The #! lines' names and arguments, a page of the call's own
	 * (__getname) taken at the first #!: argv points into it until the
	 * exec is done, so exec_prepare's caller gives it back (__putname).
	 */
	char *scripts;
};

/*
 * Resolves filename (from the caller's cwd) and the #! chain and PT_INTERP
 * behind it.  argv/envp: argc then envc pointers in one array of room
 * pointers (a script's interpreter and its argument are spliced in), the
 * strings kernel memory that outlives the exec.  0 or -errno; on success
 * c->req is ready for do_execve_req / do_spawn_req and exec_release must
 * follow; in every case __putname(c->scripts) after the last use of argv.
 */
int exec_prepare(const char *filename, char **ptrs, int room, int argc, int envc,
		 struct exec_ctx *c);
void exec_release(struct exec_ctx *c);

/* exec_prepare + do_execve_req / do_spawn_req + exec_release. */
long exec_file(const char *filename, char **ptrs, int room, int argc, int envc);
long spawn_file(const char *filename, char **ptrs, int room, int argc, int envc);

/*
 * The kernel's jobs start the project's programs (userland/, installed in
 * the initramfs) by name: "init" is /sbin/init, any other NAME without a '/'
 * is /bin/NAME, a path is used as it is.  spawn_file with argv (argc
 * strings); the pid or -errno.
 */
long spawn_prog(const char *name, int argc, char *const argv[]);

#endif
