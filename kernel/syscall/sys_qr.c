/*
 * __NR_aslrbench_qr: the shell's `qr` (userland/src/qr.c) shows the records
 * held so far as QR codes.  The program pages with the keys its terminal
 * gives it (serial or keyboard, with poll's timeout), so the kernel never
 * waits here and Ctrl-C reaches it as on any command; the kernel only
 * builds and draws (kernel/console/qr_screen.c).  Any user may: the
 * records were on the console already.
 */
#include "kernel/console/qr_screen.h"
#include "kernel/lib/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/aslrbench.h"

long sys_aslrbench_qr(const struct syscall_args *a)
{
	switch (a->a0) {
	case QR_OP_BUILD:
		return qr_screen_build();
	case QR_OP_SHOW:
		return a->a1 <= 999 && qr_screen_draw((unsigned)a->a1) ? 0 : -EINVAL;
	case QR_OP_DONE:
		qr_screen_done();
		return 0;
	default:
		return -EINVAL;
	}
}
