/*
 * /proc/<pid>/maps, in show_map_vma's format (fs/proc/task_mmu.c).  Already
 * in 2.6.29 it required ptrace_may_access — the 2009 patch borrowed this
 * test for the stat fields — so it is gated whatever proc_leak_fix says,
 * and a denied reader gets EACCES at open (later kernels' behaviour; 2.6.29
 * returned an empty file).
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/mm.h"

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

long proc_pid_maps(struct task_struct *task, char *buf)
{
	struct mm_struct *mm = task->mm;
	size_t n = 0;

	if (!mm)
		return 0;
	for (int i = 0; i < mm->nvmas && n < PROC_BUF - 1; i++) {
		const struct vm_area *v = &mm->vmas[i];
		static char tmp[PATH_MAX];
		const char *name = vma_name(mm, v, tmp, sizeof(tmp));
		uint32_t dev = v->kind == VMA_EXE ? (8 << 8) | 1 : 0;
		uint64_t ino = v->kind == VMA_EXE ? 1000UL + (uint64_t)(mm->exe_name[0]) : 0UL;
		int len;

		if (v->vm_file) {
			/* show_map_vma: the file's device, inode and d_path. */
			v->vm_ops->show(v->vm_file, tmp, sizeof(tmp), &dev, &ino);
			name = tmp;
		}
		len = ksnprintf(buf + n, PROC_BUF - n, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ",
				v->start, v->end, (v->flags & VM_READ) ? 'r' : '-',
				(v->flags & VM_WRITE) ? 'w' : '-', (v->flags & VM_EXEC) ? 'x' : '-',
				'p', v->pgoff, dev >> 8, dev & 0xff, ino);
		if (len < 0 || (size_t)len >= PROC_BUF - n)
			break;
		n += (size_t)len;
		if (name) {
			/* pad_len_spaces: names start at column 73 on 64-bit. */
			int pad = 73 - len;

			len = ksnprintf(buf + n, PROC_BUF - n, "%*s%s", pad < 1 ? 1 : pad, "",
					name);
			if (len < 0 || (size_t)len >= PROC_BUF - n)
				break;
			n += (size_t)len;
		}
		if (n < PROC_BUF - 1)
			buf[n++] = '\n';
	}
	return (long)n;
}
