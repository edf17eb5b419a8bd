/*
 * Path walk and permission, after Linux 6.6's fs/namei.c: each directory
 * crossed needs search (x) permission, symlinks are followed (40 in all,
 * ELOOP past that, as MAXSYMLINKS), a mount point leads into the mounted
 * root, ".." out of it, and ".." at the root stays at the root.
 *
 * A link's body is read into a buffer of the call's own (names.h), taken
 * when a link is met and given back when its level of the walk ends;
 * nesting stops eight deep (ELOOP).  A link that ends the path (or a
 * link's body) is not nested: its body replaces the rest of the walk at
 * the same level, as Linux's trailing links, so a chain of 40 links needs
 * no nesting at all, and one buffer for the level.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/fs/names.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/task/process.h"
#include "kernel/task/task.h"

#define NEST_MAX	    8
#define CAP_DAC_OVERRIDE    1
#define CAP_DAC_READ_SEARCH 2
#define CAP_FOWNER	    3

static bool has_cap(int cap)
{
	return current->cred.cap_effective & (1ULL << cap);
}

/* generic_permission: owner, else group, else other bits; then the capabilities. */
int inode_permission(struct inode *ino, int mask)
{
	const struct cred *c = &current->cred;
	uint32_t mode = ino->mode;

	if (c->fsuid == ino->uid)
		mode >>= 6;
	else if (c->fsgid == ino->gid)
		mode >>= 3;
	if ((mask & ~mode & 7) == 0)
		return 0;
	if (S_ISDIR(ino->mode)) {
		if (has_cap(CAP_DAC_OVERRIDE))
			return 0;
		if (!(mask & MAY_WRITE) && has_cap(CAP_DAC_READ_SEARCH))
			return 0;
		return -EACCES;
	}
	/* Execute is granted to root only if some x bit is set. */
	if (has_cap(CAP_DAC_OVERRIDE) && (!(mask & MAY_EXEC) || (ino->mode & 0111)))
		return 0;
	if (mask == MAY_READ && has_cap(CAP_DAC_READ_SEARCH))
		return 0;
	return -EACCES;
}

int may_create(struct inode *dir)
{
	if (dir->dead)
		return -ENOENT;
	return inode_permission(dir, MAY_WRITE | MAY_EXEC);
}

/* may_delete + check_sticky: write and search on dir, and the sticky rule. */
int may_delete(struct inode *dir, struct inode *ino)
{
	int rc = inode_permission(dir, MAY_WRITE | MAY_EXEC);
	uint32_t fsuid = current->cred.fsuid;

	if (rc)
		return rc;
	if (!(dir->mode & S_ISVTX) || fsuid == ino->uid || fsuid == dir->uid || has_cap(CAP_FOWNER))
		return 0;
	return -EPERM;
}

static struct inode *follow_mount(struct inode *ino)
{
	while (ino->mounted) {
		struct inode *m = ino->mounted;

		iget(m);
		iput(ino);
		ino = m;
	}
	return ino;
}

static int walk(struct inode *cur, const char *p, int flags, int *links, int depth,
		struct inode **out);

/* The link's body into buf; counts it against MAXSYMLINKS (the 41st is ELOOP). */
static int read_link(struct inode *link, char *buf, int *links)
{
	long n;

	if (++*links > MAXSYMLINKS)
		return -ELOOP;
	if (!link->op->readlink)
		return -EINVAL;
	n = link->op->readlink(link, buf, PATH_MAX - 1);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENOENT;
	buf[n] = '\0';
	return 0;
}

static int follow_link(struct inode *dir, struct inode *link, int flags, int *links, int depth,
		       struct inode **out)
{
	int rc;

	char *body;

	if (depth >= NEST_MAX)
		return -ELOOP;
	if (!(body = __getname()))
		return -ENOMEM;
	if (!(rc = read_link(link, body, links))) {
		iget(dir);
		rc = walk(dir, body, flags, links, depth + 1, out);
	}
	__putname(body);
	return rc;
}

/* Takes over the reference on cur; *out holds one on success. */
static int walk(struct inode *cur, const char *p, int flags, int *links, int depth,
		struct inode **out)
{
	char name[NAME_MAX + 1];
	char *tail = 0; /* the body of a trailing link: the walk's own text is done with */
	int rc = 0;

	if (*p == '/') {
		iput(cur);
		cur = root_inode;
		iget(cur);
	}
	for (;;) {
		struct inode *next;
		const char *start;
		size_t len;
		bool last, slash;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != '/')
			p++;
		len = (size_t)(p - start);
		if (len > NAME_MAX) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(name, start, len);
		name[len] = '\0';
		slash = *p == '/';
		while (*p == '/')
			p++;
		last = !*p;
		if (!S_ISDIR(cur->mode)) {
			rc = -ENOTDIR;
			break;
		}
		if ((rc = inode_permission(cur, MAY_EXEC)))
			break;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			next = cur == root_inode ? cur : cur->parent;
			iget(next);
		} else {
			if (!cur->op->lookup) {
				rc = -ENOTDIR;
				break;
			}
			if ((rc = cur->op->lookup(cur, name, &next)))
				break;
			next = follow_mount(next);
		}
		if (S_ISLNK(next->mode) && last && !slash && (flags & LOOKUP_FOLLOW)) {
			/* Trailing: walk the body from this directory, at this level. */
			if (!tail && !(tail = __getname())) {
				iput(next);
				rc = -ENOMEM;
				break;
			}
			rc = read_link(next, tail, links);
			iput(next);
			if (rc)
				break;
			p = tail;
			if (*p == '/') {
				iput(cur);
				cur = root_inode;
				iget(cur);
			}
			continue;
		}
		if (S_ISLNK(next->mode) && (!last || slash || (flags & LOOKUP_FOLLOW))) {
			struct inode *t;
			int lf = LOOKUP_FOLLOW | (last ? (flags & LOOKUP_DIR) : LOOKUP_DIR);

			rc = follow_link(cur, next, lf, links, depth, &t);
			iput(next);
			if (rc)
				break;
			next = t;
		}
		iput(cur);
		cur = next;
		if (last && slash && !S_ISDIR(cur->mode) && !S_ISLNK(cur->mode)) {
			rc = -ENOTDIR;
			break;
		}
	}
	__putname(tail);
	if (!rc && (flags & LOOKUP_DIR) && !S_ISDIR(cur->mode))
		rc = -ENOTDIR;
	if (rc) {
		iput(cur);
		return rc;
	}
	*out = cur;
	return 0;
}

static struct inode *start_dir(struct inode *start)
{
	struct inode *s = start ? start : current->fs->pwd ? current->fs->pwd : root_inode;

	iget(s);
	return s;
}

int path_lookup(struct inode *start, const char *path, int flags, struct inode **out)
{
	int links = 0;

	kernel_lock_assert_held("path_lookup");
	if (!*path)
		return -ENOENT;
	return walk(start_dir(start), path, flags, &links, 0, out);
}

int path_parent(struct inode *start, const char *path, struct inode **dir, char *last,
		bool *must_dir)
{
	size_t len = strlen(path), end, begin;
	int links = 0, rc;
	char *head;

	kernel_lock_assert_held("path_parent");
	if (!len)
		return -ENOENT;
	end = len;
	while (end > 1 && path[end - 1] == '/')
		end--;
	*must_dir = end != len;
	begin = end;
	while (begin > 0 && path[begin - 1] != '/')
		begin--;
	if (end - begin > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(last, path + begin, end - begin);
	last[end - begin] = '\0';
	if (!strcmp(last, "/"))
		last[0] = '\0';
	if (!(head = __getname()))
		return -ENOMEM;
	memcpy(head, path, begin);
	head[begin] = '\0';
	if (!begin)
		strlcpy(head, ".", PATH_MAX);
	rc = walk(start_dir(start), head, LOOKUP_FOLLOW | LOOKUP_DIR, &links, 0, dir);
	__putname(head);
	return rc;
}

/* The entry of parent that names ino (by inode number, so /proc works too). */
static int name_in(struct inode *parent, struct inode *ino, char *name)
{
	struct dirent_out d;

	for (uint64_t i = 2; parent->op->readdir && parent->op->readdir(parent, i, &d) == 0; i++) {
		if (d.ino == ino->ino) {
			strlcpy(name, d.name, NAME_MAX + 1);
			return 0;
		}
	}
	return -ENOENT;
}

long dir_path(struct inode *dir, char *buf, size_t n)
{
	char name[NAME_MAX + 1];
	size_t pos = n - 1;

	if (n < 2)
		return -ERANGE;
	buf[pos] = '\0';
	while (dir != root_inode) {
		struct inode *self = dir->covered ? dir->covered : dir;
		struct inode *up = self->parent;
		size_t len;

		if (!up || (self->ramfs && !self->nlink) || name_in(up, self, name))
			return -ENOENT; /* removed: Linux's getcwd says ENOENT too */
		len = strlen(name);
		if (len + 1 > pos)
			return -ENAMETOOLONG; /* Linux's prepend_path into its one page */
		pos -= len;
		memcpy(buf + pos, name, len);
		buf[--pos] = '/';
		dir = up;
	}
	if (pos == n - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, n - pos);
	return (long)(n - pos);
}

/* Depth-first through the ramfs (not into mounts) for a name of ino. */
static bool find_name(struct inode *dir, struct inode *ino, char *buf, size_t n, size_t len,
		      int depth, bool *too_long)
{
	for (struct dentry *d = dir->ram.children; d; d = d->next) {
		size_t l = strlen(d->name);

		if (len + 1 + l + 1 > n) {
			*too_long = true;
			continue;
		}
		buf[len] = '/';
		memcpy(buf + len + 1, d->name, l + 1);
		if (d->inode == ino)
			return true;
		if (S_ISDIR(d->inode->mode) && d->inode->ramfs && !d->inode->mounted &&
		    depth < 64 &&
		    find_name(d->inode, ino, buf, n, len + 1 + l, depth + 1, too_long))
			return true;
	}
	buf[len] = '\0';
	return false;
}

long inode_path(struct inode *ino, char *buf, size_t n)
{
	bool too_long = false;
	long rc;

	if (n < 16)
		return -ERANGE;
	if (ino->op && ino->op->path)
		return ino->op->path(ino, buf, n);
	if (S_ISDIR(ino->mode) && ((rc = dir_path(ino, buf, n)) >= 0 || rc == -ENAMETOOLONG))
		return rc < 0 ? rc : (long)strlen(buf);
	if (ino->ramfs && ino->nlink && find_name(root_inode, ino, buf, n, 0, 0, &too_long))
		return (long)strlen(buf);
	if (too_long) /* a live file whose name does not fit: d_path's ENAMETOOLONG */
		return -ENAMETOOLONG;
	if (S_ISCHR(ino->mode) && ino->rdev == DEV_CONSOLE)
		return (long)strlcpy(buf, "/dev/console", n);
	return (long)strlcpy(buf, "(deleted)", n);
}
