# kernel/console/font.mk: the screen console's font (kernel/console/fbcon.c, psf.c).
#
# Terminus Bold 8x16 from Debian's console-setup-linux: a console font drawn
# for legibility, with 2-pixel strokes that survive a phone photo of a laptop
# screen; Lat15 = ASCII, Latin-1 and box drawing in 256 glyphs (4 KiB) with a
# unicode table.  Any PSF1/PSF2 font works: make FBCON_FONT=/path/x.psf[.gz].
# The file is turned into an object as it is; psf.c parses and checks it at
# boot (a bad font costs the screen console, never serial).

FBCON_FONT     ?= /usr/share/consolefonts/Lat15-TerminusBold16.psf.gz
FBCON_FONT_OBJ := $(BUILD)/k/font/fbcon_font.o
KERNEL_EXTRA_OBJS += $(FBCON_FONT_OBJ)

# objcopy names the symbols after the input file, hence the fixed name and cd.
$(FBCON_FONT_OBJ): $(FBCON_FONT) kernel/console/font.mk
	@mkdir -p $(@D)
	@echo "  FONT    $@"
	$(Q)case "$<" in *.gz) gzip -dc "$<" ;; *) cat "$<" ;; esac >$(@D)/fbcon_font.psf
	$(Q)cd $(@D) && objcopy -I binary -O elf64-x86-64 -B i386:x86-64 \
		--rename-section .data=.rodata,alloc,load,readonly,data,contents \
		--redefine-sym _binary_fbcon_font_psf_start=fbcon_font_psf_start \
		--redefine-sym _binary_fbcon_font_psf_end=fbcon_font_psf_end \
		--strip-symbol _binary_fbcon_font_psf_size \
		fbcon_font.psf fbcon_font.o

$(FBCON_FONT):
	@echo "missing console font $@: install console-setup-linux (scripts/deps.sh)" >&2
	@exit 1
