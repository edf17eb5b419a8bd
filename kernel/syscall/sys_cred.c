/*
 * Credentials, as Linux: an unprivileged task may only shuffle its own real,
 * effective and saved ids; CAP_SETUID/CAP_SETGID allow any.  Changing the
 * effective id makes the task non-dumpable (commit_creds), which is what
 * keeps a set-id program's memory out of reach of ptrace and /proc.
 * Capabilities follow the effective uid (root has them all).
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/lib/string.h"
#include "kernel/task/task.h"
#include "kernel/security/ptrace.h" /* capable */
#include "kernel/syscall/syscall.h"

#define KEEP 0xffffffffu

long sys_getuid(const struct syscall_args *a)
{
	(void)a;
	return current->cred.uid;
}

long sys_geteuid(const struct syscall_args *a)
{
	(void)a;
	return current->cred.euid;
}

long sys_getgid(const struct syscall_args *a)
{
	(void)a;
	return current->cred.gid;
}

long sys_getegid(const struct syscall_args *a)
{
	(void)a;
	return current->cred.egid;
}

static bool one_of(uint32_t v, uint32_t r, uint32_t e, uint32_t s)
{
	return v == KEEP || v == r || v == e || v == s;
}

long sys_setresuid(const struct syscall_args *a)
{
	struct task_struct *t = current;
	uint32_t r = (uint32_t)a->a0, e = (uint32_t)a->a1, s = (uint32_t)a->a2,
		 old_e = t->cred.euid;

	if (!capable(CAP_SETUID) && !(one_of(r, t->cred.uid, t->cred.euid, t->cred.suid) &&
				      one_of(e, t->cred.uid, t->cred.euid, t->cred.suid) &&
				      one_of(s, t->cred.uid, t->cred.euid, t->cred.suid)))
		return -EPERM;
	if (r != KEEP)
		t->cred.uid = r;
	if (e != KEEP)
		t->cred.euid = e;
	if (s != KEEP)
		t->cred.suid = s;
	t->cred.fsuid = t->cred.euid;
	if (t->cred.euid != old_e)
		t->dumpable = 0;
	task_fixup_caps(t);
	return 0;
}

long sys_setuid(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a0, a->a0, 0, 0, 0};

	/* Linux 6.6's __sys_setuid: uid -1 is not a valid kuid. */
	if ((uint32_t)a->a0 == KEEP)
		return -EINVAL;
	if (capable(CAP_SETUID))
		return sys_setresuid(&b);
	b.a0 = KEEP;
	b.a2 = KEEP;
	return sys_setresuid(&b);
}

/* setgid, as setuid: all three ids with CAP_SETGID, else the effective one. */
long sys_setgid(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a0, a->a0, 0, 0, 0};

	if (capable(CAP_SETGID))
		return sys_setresgid(&b);
	b.a0 = KEEP;
	b.a2 = KEEP;
	return sys_setresgid(&b);
}

/* getgroups(size, list): no task here has supplementary groups. */
long sys_getgroups(const struct syscall_args *a)
{
	return (int)a->a0 < 0 ? -EINVAL : 0;
}

long sys_setresgid(const struct syscall_args *a)
{
	struct task_struct *t = current;
	uint32_t r = (uint32_t)a->a0, e = (uint32_t)a->a1, s = (uint32_t)a->a2,
		 old_e = t->cred.egid;

	if (!capable(CAP_SETGID) && !(one_of(r, t->cred.gid, t->cred.egid, t->cred.sgid) &&
				      one_of(e, t->cred.gid, t->cred.egid, t->cred.sgid) &&
				      one_of(s, t->cred.gid, t->cred.egid, t->cred.sgid)))
		return -EPERM;
	if (r != KEEP)
		t->cred.gid = r;
	if (e != KEEP)
		t->cred.egid = e;
	if (s != KEEP)
		t->cred.sgid = s;
	t->cred.fsgid = t->cred.egid;
	if (t->cred.egid != old_e)
		t->dumpable = 0;
	return 0;
}

static long put_three(const struct syscall_args *a, uint32_t r, uint32_t e, uint32_t s)
{
	if (copy_to_user(a->a0, &r, 4) || copy_to_user(a->a1, &e, 4) || copy_to_user(a->a2, &s, 4))
		return -EFAULT;
	return 0;
}

long sys_getresuid(const struct syscall_args *a)
{
	return put_three(a, current->cred.uid, current->cred.euid, current->cred.suid);
}

long sys_getresgid(const struct syscall_args *a)
{
	return put_three(a, current->cred.gid, current->cred.egid, current->cred.sgid);
}

long sys_prctl(const struct syscall_args *a)
{
	char name[TASK_COMM_LEN];
	long rc;

	switch (a->a0) {
	case PR_GET_DUMPABLE:
		return current->dumpable;
	case PR_SET_DUMPABLE:
		if (a->a1 > 1)
			return -EINVAL;
		current->dumpable = (int)a->a1;
		return 0;
	case PR_SET_NAME:
		rc = strncpy_from_user(name, a->a1, sizeof(name));
		if (rc == -ENAMETOOLONG) {
			if (copy_from_user(name, a->a1, sizeof(name) - 1))
				return -EFAULT;
			name[sizeof(name) - 1] = '\0';
		} else if (rc < 0) {
			return rc;
		}
		task_set_comm(current, name);
		return 0;
	case PR_GET_NAME:
		return copy_to_user(a->a1, current->comm, sizeof(current->comm)) ? -EFAULT : 0;
	case PR_SET_CHILD_SUBREAPER:
		current->signal->is_child_subreaper = a->a1 != 0;
		return 0;
	case PR_GET_CHILD_SUBREAPER: {
		int v = current->signal->is_child_subreaper;

		return copy_to_user(a->a1, &v, sizeof(v)) ? -EFAULT : 0;
	}
	default:
		return -EINVAL;
	}
}
