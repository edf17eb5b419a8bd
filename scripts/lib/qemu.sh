# shellcheck shell=bash
# QEMU flags more than one boot script uses, so that they stay the same.
#
# QEMU_DETERMINISTIC_ARGS: TCG with one guest instruction per virtual
# nanosecond and no idle-time skew, so rdtsc counts instructions,
# identically on every run (scripts/run-qemu.sh --deterministic, aslrbench;
# scripts/linux-ref.sh --deterministic, Linux 6.12).
# shellcheck disable=SC2034,SC2054 # used by the scripts that source this; QEMU's commas
QEMU_DETERMINISTIC_ARGS=(-accel tcg -cpu max -icount shift=0,sleep=off -rtc clock=vm)
