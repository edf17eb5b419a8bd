/*
 * Console input.  The UART and the PS/2 keyboard are polled from the timer
 * tick into one ring buffer, and readers sleep until a byte arrives.  Raw
 * bytes, no echo: the shell does its own line editing.  Of Linux's n_tty
 * only ISIG is kept: with ISIG set in the termios, the VINTR, VQUIT and
 * VSUSP characters are not queued but signal the foreground process group
 * (SIGINT, SIGQUIT, SIGTSTP: Ctrl-Z stops the foreground job) and flush
 * the unread input unless NOFLSH; a read from a background process group
 * gets SIGTTIN (job_control).  QEMU holds back piped input
 * while the guest's FIFO is full, so a script piped into the serial port
 * loses nothing; the 4 KiB ring absorbs bursts between ticks.
 */
#include "kernel/arch/cpu.h"
#include "kernel/console/keyboard.h"
#include "kernel/console/serial.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/tty.h"
#include "kernel/char/random.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

#define RING 4096

static char ring[RING];
static unsigned head, tail; /* head: next write; tail: next read */

/* c_lflag bits and c_cc indices (include/uapi/asm-generic/termbits.h). */
#define ISIG   0x0001
#define NOFLSH 0x0080
#define VINTR  0
#define VQUIT  1
#define VSUSP  10

/*
 * The console's termios and foreground process group, stored and returned
 * as Linux does; only ISIG and its characters act on the input.
 */
struct ktermios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line, c_cc[19];
};
static struct ktermios tty_termios = {
	/* tty_std_termios (Linux's drivers/tty/tty_io.c): ICRNL|IXON, OPOST|ONLCR,
	   B38400|CS8|CREAD|HUPCL */
	0x500,	0x5, 0xbf,
	0x8a3b, 0,   {3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0, 0, 0},
};
static int tty_pgrp = 1;
/*
 * The console's session (tty->session): this kernel has no controlling
 * terminal of its own, so the console belongs to the session of the first
 * process that set its foreground group (TIOCSPGRP: a job-control shell),
 * and until then to none: nobody is then in the background.
 */
static int tty_session;

/*
 * n_tty's signal characters: the signal to send for c, or 0 to queue it.
 * A c_cc entry of 0 is _POSIX_VDISABLE (Linux's __DISABLED_CHAR).
 */
static int isig_signal(unsigned char c)
{
	if (!(tty_termios.c_lflag & ISIG) || c == 0)
		return 0;
	if (c == tty_termios.c_cc[VINTR])
		return SIGINT;
	if (c == tty_termios.c_cc[VQUIT])
		return SIGQUIT;
	if (c == tty_termios.c_cc[VSUSP])
		return SIGTSTP;
	return 0;
}

/* n_tty's isig: the unread input goes unless NOFLSH, then the group's signal. */
static void isig(int sig)
{
	if (!(tty_termios.c_lflag & NOFLSH))
		tail = head;
	kill_pgrp(tty_pgrp, sig);
}

/*
 * Drains the UART only while the ring has room: a full ring leaves bytes in
 * the UART, whose full FIFO makes QEMU stop reading its input, so a long
 * piped script is held back rather than lost.
 */
void tty_poll(void)
{
	bool got = false;

	while (head - tail < RING) {
		int c = serial_getc();

		if (c < 0)
			c = kbd_getc();
		if (c < 0)
			break;
		/*
		 * The 2.6.29 input pool's feed: every key is an EV_KEY press and
		 * release through add_input_randomness (drivers/input/input.c);
		 * the serial console stands in for a keyboard here.
		 */
		add_input_randomness(EV_KEY, (unsigned int)c, 1);
		add_input_randomness(EV_KEY, (unsigned int)c, 0);
		int sig = isig_signal((unsigned char)c);

		if (sig) {
			isig(sig);
			continue;
		}
		ring[head % RING] = (char)c;
		head++;
		got = true;
	}
	if (got) {
		wake_up(ring);
		poll_notify();
	}
}

/*
 * poll's POLLIN on the console follows what read does: the line discipline
 * is raw whatever ICANON says in the stored termios (sys_stat.c), so read
 * returns as soon as one byte is in the ring, and so poll reports POLLIN.
 * A canonical mode would have to report a complete line here instead.
 */
bool n_tty_input_ready(void)
{
	return head != tail;
}

/*
 * job_control and __tty_check_change(tty, SIGTTIN) (Linux 6.6,
 * drivers/tty/n_tty.c, tty_jobctrl.c): a process of the console's session
 * outside its foreground group may not read: EIO if it blocks or ignores
 * SIGTTIN or its group is orphaned, else SIGTTIN to its group and the read
 * restarts once the group is continued.
 */
static long job_control_read(void)
{
	struct task_struct *me = current;

	if (!tty_session || me->signal->sid != tty_session || me->signal->pgid == tty_pgrp)
		return 0;
	if ((me->sigmask & sigmask(SIGTTIN)) ||
	    me->sighand->action[SIGTTIN - 1].handler == SIG_IGN_HANDLER)
		return -EIO;
	if (is_current_pgrp_orphaned())
		return -EIO;
	kill_pgrp(me->signal->pgid, SIGTTIN);
	return -ERESTARTSYS;
}

long n_tty_read(char *kbuf, size_t n)
{
	size_t got = 0;
	long err = job_control_read();

	if (err)
		return err;

	while (head == tail) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on_interruptible(ring, 0, (const void *)n_tty_read);
	}
	uint64_t flags = irq_save();
	while (got < n && tail != head) {
		kbuf[got++] = ring[tail % RING];
		tail++;
	}
	irq_restore(flags);
	return (long)got;
}

/*
 * Linux 6.6's tiocspgrp: ESRCH unless some task still holds the number
 * (find_vpid: as a pid, a process group or a session id, zombies
 * included), EPERM unless that group is in the caller's session
 * (session_of_pgrp).  A pipeline's shell sets the first process's group as
 * the foreground one after that process may have exited, as a zombie.
 */
static long tiocspgrp(int pgrp)
{
	const struct task_struct *holder = 0, *member = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_struct *t = &tasks[i];

		if (t->state == TASK_UNUSED)
			continue;
		if (t->signal->pgid == pgrp && !member)
			member = t;
		if (t->pid == pgrp || t->signal->pgid == pgrp || t->signal->sid == pgrp)
			holder = t;
	}
	if (!holder)
		return -ESRCH;
	if ((member ? member : holder)->signal->sid != current->signal->sid)
		return -EPERM;
	tty_pgrp = pgrp;
	if (!tty_session)
		tty_session = current->signal->sid;
	return 0;
}

long tty_ioctl(unsigned int cmd, uint64_t arg)
{
	uint16_t ws[4] = {25, 80, 0, 0};
	int pgrp;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(arg, &tty_termios, sizeof(tty_termios));
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return copy_from_user(&tty_termios, arg, sizeof(tty_termios));
	case TIOCGWINSZ:
		return copy_to_user(arg, ws, sizeof(ws));
	case TIOCGPGRP:
		return copy_to_user(arg, &tty_pgrp, sizeof(tty_pgrp));
	case TIOCSPGRP:
		if (copy_from_user(&pgrp, arg, sizeof(pgrp)))
			return -EFAULT;
		if (pgrp < 0)
			return -EINVAL;
		return tiocspgrp(pgrp);
	default:
		return -ENOTTY;
	}
}
