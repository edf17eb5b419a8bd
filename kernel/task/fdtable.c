/*
 * files_struct and fs_struct (Linux 6.6's fs/file.c dup_fd, fs/fs_struct.c
 * copy_fs_struct): the pools, the copies fork makes without CLONE_FILES or
 * CLONE_FS, and the last reference's release.  Each allocation is a
 * fail-nth site, so the fuzzer's failure injection reaches thread creation.
 */
#include "kernel/lib/string.h"
#include "kernel/task/fail_nth.h"
#include "kernel/task/task.h"

struct files_struct init_files = {.count = 1};
struct fs_struct init_fs = {.users = 1, .umask = 022};

static struct files_struct files_pool[NR_TASKS];
static struct fs_struct fs_pool[NR_TASKS];

struct files_struct *dup_fd(const struct files_struct *from)
{
	struct files_struct *f = 0;

	if (should_fail_alloc())
		return 0;
	for (int i = 0; i < NR_TASKS && !f; i++)
		if (!files_pool[i].count)
			f = &files_pool[i];
	if (!f)
		return 0;
	for (int i = 0; i < NR_OPEN; i++) {
		f->fd[i] = from->fd[i];
		if (f->fd[i])
			task_file_get(f->fd[i]);
	}
	f->close_on_exec = from->close_on_exec;
	f->count = 1;
	return f;
}

void put_files_struct(struct files_struct *files)
{
	if (!files || --files->count > 0)
		return;
	for (int i = 0; i < NR_OPEN; i++) {
		if (files->fd[i])
			task_file_put(files->fd[i]);
		files->fd[i] = 0;
	}
	files->close_on_exec = 0;
	if (files == &init_files)
		files->count = 1; /* the boot context's table is never freed */
}

struct fs_struct *copy_fs_struct(const struct fs_struct *from)
{
	struct fs_struct *fs = 0;

	if (should_fail_alloc())
		return 0;
	for (int i = 0; i < NR_TASKS && !fs; i++)
		if (!fs_pool[i].users)
			fs = &fs_pool[i];
	if (!fs)
		return 0;
	fs->pwd = from->pwd;
	if (fs->pwd)
		task_inode_get(fs->pwd);
	fs->umask = from->umask;
	fs->users = 1;
	return fs;
}

void free_fs_struct(struct fs_struct *fs)
{
	if (!fs || --fs->users > 0)
		return;
	if (fs->pwd)
		task_inode_put(fs->pwd);
	fs->pwd = 0;
	if (fs == &init_fs)
		fs->users = 1;
}
