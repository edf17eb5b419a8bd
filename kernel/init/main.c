/*
 * kmain: from the loader's hand-off to the job the command line asks for.
 *
 * Order matters: the console first (so every later failure is visible),
 * then our own descriptor tables (the firmware's live in memory we are
 * about to reclaim), memory, the command line (it sets HZ), the clocks, the
 * RNG (it needs jiffies and the seed), and only then the job.
 */
#include "boot/boot_info.h"
#include "kernel/arch/acpi.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/idt.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/boot_info.h"
#include "kernel/init/boot_record.h"
#include "kernel/init/init_path.h"
#include "kernel/params/param.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/keyboard.h"
#include "kernel/console/qr_screen.h"
#include "kernel/lib/printk.h"
#include "kernel/console/serial.h"
#include "kernel/fs/file.h"
#include "kernel/fs/initramfs.h"
#include "kernel/fs/vfs.h"
#include "kernel/fs/proc/proc.h"
#include "kernel/fs/tty.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vdso.h"
#include "kernel/mm/vmm.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/xstate.h"
#include "kernel/char/random.h"

struct percpu percpu0 = {
	.self = &percpu0,
	.stack_canary = 0x2f8a9c6e1d4b7053ULL, /* replaced from the RNG once it is seeded */
};
struct boot_info boot_info_copy;

/*
 * SSE on, then XSAVE and the AVX state the context switch will save
 * (kernel/arch/xstate.c).  OSXSAVE starts off whatever the firmware left,
 * and comes back on only with an XCR0 this kernel chose.
 */
static void enable_sse(void)
{
	write_cr0((read_cr0() & ~(1ULL << 2)) | (1ULL << 1)); /* EM off, MP on */
	write_cr4((read_cr4() | (1ULL << 9) | (1ULL << 10)) & ~(1ULL << 18));
	fpu__init_system_xstate();
}

static void take_boot_info(const struct boot_info *bi)
{
	if (!bi || bi->magic != BOOT_INFO_MAGIC) {
		kprintf("aslrbench: boot_info has a bad magic; wrong loader?\n");
		machine_exit(EXIT_PANIC);
	}
	if (bi->version != BOOT_INFO_VERSION || bi->size != sizeof(struct boot_info)) {
		kprintf("aslrbench: boot_info version %u size %u, kernel expects %u/%lu\n",
			bi->version, bi->size, BOOT_INFO_VERSION, sizeof(struct boot_info));
		machine_exit(EXIT_PANIC);
	}
	memcpy(&boot_info_copy, bi, sizeof(boot_info_copy));
	boot_info_copy.cmdline[BOOT_CMDLINE_MAX - 1] = '\0';
}

/* Stops the boot on a bad command line, naming the key (contract). */
static void parse_cmdline_or_die(void)
{
	char err[320];

	const char *rest = parse_args(boot_info_copy.cmdline, __params_start, __params_end, 0, err,
				      sizeof(err));

	if (rest && init_path_set_args(rest, err, sizeof(err)) == 0)
		return;
	kprintf("aslrbench: bad command line: %s\n", err);
	kprintf("aslrbench: the command line was: \"%s\"\n", boot_info_copy.cmdline);
	machine_exit(EXIT_CMDLINE);
}

/* The firmware's SPCR names the console UART: switch to it when it answers. */
static void use_spcr_serial(void)
{
	uint16_t port = acpi_facts.spcr_port;

	if (!port || port == serial_port())
		return;
	if (serial_init_port(port))
		kprintf("aslrbench: serial console moved to I/O port 0x%x (ACPI SPCR)\n", port);
}

/*
 * The process world's start: the scheduler, system calls, /proc, the hooks
 * through which lower layers call up (files, tty, faults), and init (pid 1),
 * the first ring-3 program, which runs what the command line asks for.
 */
static void start_aps(void);

static void start_init(void)
{
	char *argv[] = {"init"};
	long pid;

	sched_tick_hook = tty_poll;
	sched_init();
	syscall_init();
	files_init();
	task_fault_init();
	task_fixup_caps(&idle_task); /* root (euid 0): all capabilities */
	vfs_init();
	initramfs_unpack(boot_info_copy.initrd_size ? phys_to_virt(boot_info_copy.initrd_phys) : 0,
			 boot_info_copy.initrd_size);
	if (boot_info_copy.initrd_size) /* the message of Linux's free_initrd_mem */
		kprintf("Freeing initrd memory: %luK\n",
			free_initrd_mem(boot_info_copy.initrd_phys, boot_info_copy.initrd_size) *
				4);
	proc_init_fs(); /* mounted on the root's /proc */
	idle_task.dumpable = 1;
	for (int fd = 0; fd < 3; fd++)
		idle_task.files->fd[fd] = console_file();
	start_aps(); /* before init: its jobs and tests find every CPU running tasks */
	pid = init_path[0] ? start_init_path() : spawn_prog("init", 1, argv);
	if (pid != 1) {
		kprintf("aslrbench: cannot start init (%ld)\n", pid);
		machine_exit(EXIT_PANIC);
	}
	/*
	 * From here every byte on the serial port reaches the console buffer.
	 * run-qemu.sh holds piped input back until it sees this line, because the
	 * firmware reads (and drops) serial input while it runs.
	 */
	kprintf("aslrbench: console ready\n");
}

/* The APs' stacks and per-CPU pages, from the page allocator (arch/ has none). */
static void *smp_alloc(unsigned pages)
{
	uint64_t p = pmm_alloc_pages(pages);

	return p ? phys_to_virt(p) : 0;
}

/* Each AP, once init runs: its system-call MSRs, its idle task, the scheduler. */
static void ap_start_kernel(void)
{
	syscall_init();
	sched_ap_init();
	cpu_idle();
}

/*
 * The APs join the scheduler, and the boot CPU waits (at most a second,
 * without the kernel lock they need) until they have.
 */
static void start_aps(void)
{
	uint64_t want = smp_cpus_online >= 64 ? ~0ULL : (1ULL << smp_cpus_online) - 1, t0;
	bool held;

	if (smp_cpus_online < 2 || !lapic_timer_calibrate(timer_hz()))
		return;
	smp_start_aps(ap_start_kernel);
	held = release_kernel_lock();
	t0 = rdtsc();
	while (__atomic_load_n(&sched_cpus_active, __ATOMIC_ACQUIRE) != want &&
	       rdtsc() - t0 < tsc_hz())
		cpu_relax();
	reacquire_kernel_lock(held);
	if (sched_cpus_active != want)
		kprintf("smp: CPUs 0x%lx of 0x%lx run tasks\n", sched_cpus_active, want);
}

static void seed_canary(void)
{
	percpu0.stack_canary = ((uint64_t)get_random_int() << 32) | get_random_int();
}

__attribute__((noreturn)) void kmain(struct boot_info *bi, uint64_t phys_base)
{
	char err[160];

	kernel_phys_base = phys_base;
	traps_install_lib_hooks(); /* before anything can print or panic */
	enable_sse();
	serial_init();
	kernel_lockdep_init();
	kprintf("\naslrbench kernel: entered at 0x%lx\n", phys_base);
	take_boot_info(bi);
	gdt_init();
	idt_init();
	pmm_init(&boot_info_copy);
	vmm_init();
	fbcon_init(&boot_info_copy.fb);
	machine_exit_hold_hook = fbcon_exit_hold;   /* a no-op unless the screen is up */
	machine_exit_show_hook = qr_screen_at_exit; /* a no-op unless qr= asks (or no serial) */
	acpi_init(boot_info_copy.rsdp);
	use_spcr_serial();
	kbd_init();
	lapic_init();
	parse_cmdline_or_die();
	timer_init(aslr_rules_current()->hz); /* HZ as that kernel's x86_64 defconfig */
	tsc_init();
	vdso_init(); /* after tsc_init: [vvar] holds the clock's rate */
	irq_enable();
	if (random_init(err, sizeof(err))) {
		kprintf("aslrbench: bad command line: %s\n", err);
		machine_exit(EXIT_CMDLINE);
	}
	seed_canary();
	smp_call_init();	  /* before the APs idle, waiting for calls */
	tlb_init();		  /* the shootdown IPI, before tasks run on the APs */
	smp_boot_cpus(smp_alloc); /* after the canary: the APs take the boot CPU's */
	emit_boot_record();
	start_init();
	cpu_idle();
}
