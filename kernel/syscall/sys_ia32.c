/*
 * The IA-32 calls that only reshape their arguments for a native one, as
 * Linux 6.6's arch/x86/kernel/sys_ia32.c and arch/x86/kernel/tls.c: mmap2
 * and old_mmap, set_thread_area and get_thread_area.  The others live beside
 * their native call (compat_sys_* in sys_file.c, sys_stat.c, sys_proc.c,
 * sys_signal.c, sys_misc.c, sys_linux.c); the table is
 * kernel/uapi/syscall_32.h, the dispatch kernel/syscall/syscall_32.c.
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/tls.h"
#include "kernel/syscall/syscall.h"

/*
 * mmap2(addr, len, prot, flags, fd, pgoff): i386's table entry is
 * sys_mmap_pgoff, the offset in pages (so a 32-bit program reaches 16 TiB
 * of a file).  fd is an int.
 */
long sys_mmap_pgoff(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0,
				 a->a1,
				 a->a2,
				 a->a3,
				 (uint64_t)(int64_t)(int32_t)a->a4,
				 (uint64_t)(uint32_t)a->a5 << 12};

	return sys_mmap(&b);
}

/* struct mmap_arg_struct32 (6.6 arch/x86/kernel/sys_ia32.c) */
struct mmap_arg_struct32 {
	uint32_t addr, len, prot, flags, fd, offset;
};

/* old_mmap: compat_sys_ia32_mmap, the six arguments in a user structure. */
long compat_sys_ia32_mmap(const struct syscall_args *a)
{
	struct mmap_arg_struct32 m;
	struct syscall_args b;

	if (copy_from_user(&m, a->a0, sizeof(m)))
		return -EFAULT;
	if (m.offset & (PAGE_SIZE - 1))
		return -EINVAL;
	b = (struct syscall_args){m.addr, m.len, m.prot, m.flags, m.fd, m.offset >> 12};
	return sys_mmap_pgoff(&b);
}

/* set_thread_area(struct user_desc *): entry_number -1 picks a free TLS entry. */
long sys_set_thread_area(const struct syscall_args *a)
{
	return do_set_thread_area(current, -1, a->a0, 1);
}

long sys_get_thread_area(const struct syscall_args *a)
{
	return do_get_thread_area(current, -1, a->a0);
}
