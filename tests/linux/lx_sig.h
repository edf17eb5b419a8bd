/*
 * lx_sig.h: what lx_signal.c and lx_sigproc.c both use to set handlers, and
 * a handler that counts.  Each program is one file, so the counter is that
 * file's own.
 */
#ifndef TESTS_LINUX_LX_SIG_H
#define TESTS_LINUX_LX_SIG_H

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t got_count;

static inline void set_action(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, 0);
}

static inline void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, 0);
}

static inline void count_handler(int sig)
{
	(void)sig;
	got_count++;
}

#endif
