/*
 * /proc/<pid>/maps, in show_map_vma's format (fs/proc/task_mmu.c).  Already
 * in 2.6.29 it required ptrace_may_access — the 2009 patch borrowed this
 * test for the stat fields — so it is gated whatever proc_leak_fix says,
 * and a denied reader gets EACCES at open (later kernels' behaviour; 2.6.29
 * returned an empty file).
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/mm.h"

static const char *vma_name(const struct mm_struct *mm, const struct vm_area *v, char *tmp,
			    size_t len)
{
	switch (v->kind) {
	case VMA_EXE:
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
		char tmp[48];
		const char *name = vma_name(mm, v, tmp, sizeof(tmp));
		int len;

		len = ksnprintf(buf + n, PROC_BUF - n, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ",
				v->start, v->end, (v->flags & VM_READ) ? 'r' : '-',
				(v->flags & VM_WRITE) ? 'w' : '-', (v->flags & VM_EXEC) ? 'x' : '-',
				'p', v->pgoff, name && v->kind == VMA_EXE ? 8 : 0,
				name && v->kind == VMA_EXE ? 1 : 0,
				v->kind == VMA_EXE ? 1000UL + (uint64_t)(mm->exe_name[0]) : 0UL);
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
