/*
 * qr [SECONDS]: the records this run printed so far as QR codes on the
 * screen (docs/hardware.md), one at a time.  A key shows the next code
 * (b or Backspace the previous, q stops), or the next comes after SECONDS
 * (default 30); with stdin not a terminal that gives keys (a file,
 * /dev/null), the codes advance by the time alone.  The kernel draws
 * (__NR_aslrbench_qr); the pacing is here, so Ctrl-C ends it as any command.
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>

#include "userland/lib/cmd.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* +1 next, -1 previous, 0 stop. */
static int next_key(int seconds, int *keys_open)
{
	struct pollfd p = {.fd = 0, .events = POLLIN};
	char c;
	int n;

	if (!*keys_open) {
		for (int ms = 0; ms < seconds * 1000 && !stop; ms += 100)
			poll(NULL, 0, 100);
		return stop ? 0 : 1;
	}
	n = poll(&p, 1, seconds * 1000);
	if (stop)
		return 0;
	if (n <= 0)
		return 1;
	if (read(0, &c, 1) != 1) {
		*keys_open = 0; /* end of input: time alone from now on, this code too */
		return next_key(seconds, keys_open);
	}
	if (c == 'q' || c == 0x03)
		return 0;
	return c == 'b' || c == '\b' || c == 0x7f ? -1 : 1;
}

int main(int argc, char **argv)
{
	int seconds = 30, keys_open = 1, k = 1, step = 1;
	long n;
	char *end;

	if (argc > 2 || (argc == 2 && (seconds = (int)strtol(argv[1], &end, 10),
				       *end || seconds < 1 || seconds > 3600))) {
		fprintf(stderr, "qr: usage: qr [SECONDS]   (1-3600 s a code, default 30)\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	n = cmd_err(syscall(__NR_aslrbench_qr, QR_OP_BUILD, 0));
	if (n <= 0) {
		fprintf(stderr, "qr: %s\n",
			n == -ENODEV	? "no screen console"
			: n == -ENODATA ? "no record yet"
					: strerror((int)-n));
		return 1;
	}
	printf("qr: %ld codes; a key: next, b: back, q: stop; next by itself after %d s\n", n,
	       seconds);
	fflush(stdout);
	while (step && k >= 1 && k <= n) {
		if (cmd_err(syscall(__NR_aslrbench_qr, QR_OP_SHOW, k)) < 0)
			break;
		step = next_key(seconds, &keys_open);
		k = step < 0 && k > 1 ? k - 1 : k + (step > 0);
	}
	syscall(__NR_aslrbench_qr, QR_OP_DONE, 0);
	printf("qr: done\n");
	return 0;
}
