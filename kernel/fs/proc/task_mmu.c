/*
 * /proc/<pid>/maps, in show_map_vma's format (fs/proc/task_mmu.c).  Already
 * in 2.6.29 it required ptrace_may_access — the 2009 patch borrowed this
 * test for the stat fields — so it is gated whatever proc_leak_fix says,
 * and a denied reader gets EACCES at open (later kernels' behaviour; 2.6.29
 * returned an empty file).  Like Linux's seq_file, the text is made anew at
 * every read and the bytes from the file position served, so it is whole
 * for any number of regions (the one-page snapshot the other files use cut
 * it at 4 KiB).  The reader's access is checked again at every read, as
 * 2.6.29's mm_for_maps did from m_start (EACCES here, as mm_for_maps's
 * later ERR_PTR; 2.6.29 read nothing): the pid may have exec'd a setuid
 * program or been reused since the open.
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/arch/page.h"

static const char *vma_name(const struct mm_struct *mm, const struct vm_area *v, char *tmp,
			    size_t len)
{
	switch (v->kind) {
	case VMA_EXE:
		/* A program from a file: its path, as Linux; an image without a file: /bin/NAME. */
		if (!mm->exe_file || inode_path(mm->exe_file, tmp, len) < 0)
			ksnprintf(tmp, len, "/bin/%s", mm->exe_name);
		return tmp;
	case VMA_HEAP:
		return "[heap]";
	case VMA_STACK:
		return "[stack]";
	case VMA_VDSO:
		return "[vdso]";
	case VMA_VVAR:
		return "[vvar]";
	default:
		return 0;
	}
}

/*
 * One region's line (show_map_vma), NUL-terminated in n bytes: its length
 * with the '\n'.  tmp: a PATH_MAX buffer for the name.
 */
static size_t show_map_vma(const struct mm_struct *mm, const struct vm_area *v, char *line,
			   size_t n, char *tmp)
{
	const char *name = vma_name(mm, v, tmp, PATH_MAX);
	uint32_t dev = v->kind == VMA_EXE ? (8 << 8) | 1 : 0;
	uint64_t ino = v->kind == VMA_EXE ? 1000UL + (uint64_t)(mm->exe_name[0]) : 0UL;
	int len, more = 0;

	if (v->vm_file) {
		/* show_map_vma: the file's device, inode and d_path. */
		v->vm_ops->show(v->vm_file, tmp, PATH_MAX, &dev, &ino);
		name = tmp;
	}
	len = ksnprintf(line, n, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ", v->start, v->end,
			(v->flags & VM_READ) ? 'r' : '-', (v->flags & VM_WRITE) ? 'w' : '-',
			(v->flags & VM_EXEC) ? 'x' : '-', (v->flags & VM_SHARED) ? 's' : 'p',
			v->pgoff, dev >> 8, dev & 0xff, ino);
	if (name) {
		/* pad_len_spaces: names start at column 73 on 64-bit. */
		int pad = 73 - len;

		more = ksnprintf(line + len, n - (size_t)len, "%*s%s", pad < 1 ? 1 : pad, "", name);
	}
	len += more;
	line[len++] = '\n';
	line[len] = 0;
	return (size_t)len;
}

/*
 * The buffers a read takes for its own, not static ones shared by every
 * reader (kernel/fs/names.h says why): the longest line, the fields, the
 * padding to column 73, a path and '\n'; then the name.
 */
#define MAPS_LINE_MAX  (128 + PATH_MAX)
#define MAPS_BUF_PAGES ((MAPS_LINE_MAX + PATH_MAX + 4095) / 4096)

long proc_pid_maps_read(struct task_struct *task, uint64_t pos, char *buf, size_t n)
{
	struct mm_struct *mm = task->mm;
	uint64_t at = 0; /* where the current line starts in the text */
	size_t done = 0;
	uint64_t page = pmm_alloc_pages(MAPS_BUF_PAGES);
	char *line = page ? phys_to_virt(page) : 0, *tmp = line + MAPS_LINE_MAX;

	if (!line)
		return -ENOMEM;
	for (int i = 0; mm && i < mm->nvmas && done < n; i++) {
		size_t len = show_map_vma(mm, &mm->vmas[i], line, MAPS_LINE_MAX, tmp);
		uint64_t cur = pos + done;

		if (cur < at + len) {
			size_t off = (size_t)(cur - at), k = len - off;

			if (k > n - done)
				k = n - done;
			if (buf)
				memcpy(buf + done, line + off, k);
			done += k;
		}
		at += len;
	}
	pmm_free_pages(page, MAPS_BUF_PAGES);
	return (long)done;
}
