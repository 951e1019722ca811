# orientd: build and install.
#   make                      release build, as yourself (swift need not be on root's PATH)
#   sudo make install         install what make built, under PREFIX (default /usr/local);
#                             DESTDIR for staging; BINPATH=DIR installs binaries built elsewhere;
#                             REPLACE_IIO_SENSOR_PROXY=yes keeps iio-sensor-proxy from starting
#   make uninstall            remove what install put there (disable the units first)
#   make deb                  release build, then orientd_VERSION_ARCH.deb (packaging/build-deb)
#   make test                 the test suite

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
HOOKSDIR ?= $(DATADIR)/orientd/hooks
DOCDIR ?= $(DATADIR)/doc/orientd
MANDIR ?= $(DATADIR)/man
# Where bash-completion, zsh and fish look for completions of an installed program. zsh reads
# vendor-completions under /usr on Debian, site-functions under /usr/local.
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(if $(filter /usr,$(PREFIX)),$(DATADIR)/zsh/vendor-completions,$(DATADIR)/zsh/site-functions)
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d
SYSCONFDIR ?= /etc
SYSTEMDSYSTEMUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,$(SYSCONFDIR)/udev/rules.d)
# The system bus reads its policies from /usr/share/dbus-1/system.d and /etc/dbus-1/system.d
# only, never from /usr/local, so other prefixes install into SYSCONFDIR.
DBUSPOLICYDIR ?= $(if $(filter /usr,$(PREFIX)),$(DATADIR)/dbus-1/system.d,$(SYSCONFDIR)/dbus-1/system.d)
SWIFT ?= swift
# Release binaries resolve their symbols at load time and keep the GOT read-only (full RELRO),
# as Debian builds its packages.
RELEASEFLAGS ?= -Xlinker -z -Xlinker now
# Where the built binaries are: swift build's link to its release directory. install never
# builds, so it needs no toolchain.
BINPATH ?= .build/release
# yes: also install a drop-in for iio-sensor-proxy's unit that keeps it from starting while
# $(BINDIR)/orientd exists, so that orientd alone serves net.hadess.SensorProxy (the Debian
# package asks for it; systemd/iio-sensor-proxy.service.d/orientd.conf.in says why).
REPLACE_IIO_SENSOR_PROXY ?= no
IIOSENSORPROXYDROPINDIR = $(SYSTEMDSYSTEMUNITDIR)/iio-sensor-proxy.service.d

HOOKS = auto x11 sway hyprland kde wlroots notify
DOCS = README.md ARCHITECTURE.md BENCHMARKS.md docs/protocol.md docs/sensors.md docs/dbus.md docs/security.md \
	docs/install.md docs/development.md docs/hinge.md docs/iio-sensor-proxy-dbus.md
# What the binaries are built from: `make` records its digest beside them, and `make install`
# compares it with the tree it runs in, so a fresh clone of the same sources installs
# without a warning and a changed source is named.
SOURCES_DIGEST = find Sources Package.swift -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@HOOKSDIR@|$(HOOKSDIR)|g' \
	-e 's|@DOCDIR@|$(DOCDIR)|g'

.PHONY: all build stamp install check-built uninstall deb test clean

all: build

build:
	$(SWIFT) build -c release $(RELEASEFLAGS) --product orientd
	$(SWIFT) build -c release $(RELEASEFLAGS) --product orientctl
	$(MAKE) stamp

# Records the digest of the sources beside the binaries in BINPATH.
stamp:
	$(SOURCES_DIGEST) > "$(BINPATH)/orientd.sources"

install: check-built
	@case "$(REPLACE_IIO_SENSOR_PROXY)" in yes | no) ;; *) \
		echo "make install: REPLACE_IIO_SENSOR_PROXY is yes or no, not '$(REPLACE_IIO_SENSOR_PROXY)'" >&2; exit 1;; esac
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(SYSCONFDIR)/orientd \
		$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR) $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(DBUSPOLICYDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPLETIONDIR) $(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR)
	install -m 0755 "$(BINPATH)/orientd" $(DESTDIR)$(BINDIR)/orientd
	install -m 0755 "$(BINPATH)/orientctl" $(DESTDIR)$(BINDIR)/orientctl
	$(SUBST) systemd/orientd.service.in > $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.service
	$(SUBST) systemd/orientd.socket.in > $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.socket
	for doc in $(DOCS); do install -m 0644 $$doc $(DESTDIR)$(DOCDIR)/$$doc; done
	install -m 0644 man/orientctl.1 $(DESTDIR)$(MANDIR)/man1/orientctl.1
	install -m 0644 man/orientd.conf.5 $(DESTDIR)$(MANDIR)/man5/orientd.conf.5
	install -m 0644 man/orientd.8 $(DESTDIR)$(MANDIR)/man8/orientd.8
	# The completions come from the programs' own option tables, so they say what --help says.
	"$(BINPATH)/orientd" --completion bash > $(DESTDIR)$(BASHCOMPLETIONDIR)/orientd
	"$(BINPATH)/orientctl" completion bash > $(DESTDIR)$(BASHCOMPLETIONDIR)/orientctl
	"$(BINPATH)/orientd" --completion zsh > $(DESTDIR)$(ZSHCOMPLETIONDIR)/_orientd
	"$(BINPATH)/orientctl" completion zsh > $(DESTDIR)$(ZSHCOMPLETIONDIR)/_orientctl
	"$(BINPATH)/orientd" --completion fish > $(DESTDIR)$(FISHCOMPLETIONDIR)/orientd.fish
	"$(BINPATH)/orientctl" completion fish > $(DESTDIR)$(FISHCOMPLETIONDIR)/orientctl.fish
	$(SUBST) systemd/user/orientd-hook.service.in > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/orientd-hook.service
	install -m 0644 systemd/61-orientd.rules $(DESTDIR)$(UDEVRULESDIR)/61-orientd.rules
	if [ "$(REPLACE_IIO_SENSOR_PROXY)" = yes ]; then \
		install -d $(DESTDIR)$(IIOSENSORPROXYDROPINDIR) && \
		$(SUBST) systemd/iio-sensor-proxy.service.d/orientd.conf.in > $(DESTDIR)$(IIOSENSORPROXYDROPINDIR)/orientd.conf; \
	fi
	install -m 0644 dbus/orientd-sensorproxy.conf $(DESTDIR)$(DBUSPOLICYDIR)/orientd-sensorproxy.conf
	install -m 0644 config/hooks/common.sh $(DESTDIR)$(HOOKSDIR)/common.sh
	for hook in $(HOOKS); do install -m 0755 config/hooks/$$hook $(DESTDIR)$(HOOKSDIR)/$$hook; done
	# Never overwrite a config the administrator has edited.
	test -e $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf || \
		install -m 0644 config/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf
	@echo "Installed. Next: systemctl daemon-reload && systemctl enable --now orientd.socket orientd.service"
	@echo "To remove it later: systemctl disable --now orientd.socket orientd.service, then make uninstall."
	@if [ "$(REPLACE_IIO_SENSOR_PROXY)" = yes ]; then \
		echo "iio-sensor-proxy.service no longer starts while $(BINDIR)/orientd exists; stop one that runs: systemctl stop iio-sensor-proxy"; fi

# install copies; it does not build (as root, swift is often not on PATH, and a build would
# leave root-owned files in .build).
check-built:
	@for binary in orientd orientctl; do \
		if [ ! -x "$(BINPATH)/$$binary" ]; then \
			echo "make install: $$binary is not built in $(BINPATH): run 'make' as yourself first, then 'sudo make install' (or give BINPATH=DIR where orientd and orientctl are)" >&2; \
			exit 1; \
		fi; \
	done
	@if [ -d Sources ] && [ -f "$(BINPATH)/orientd.sources" ]; then \
		if [ "$$($(SOURCES_DIGEST))" != "$$(cat "$(BINPATH)/orientd.sources")" ]; then \
			echo "make install: warning: the sources differ from those $(BINPATH)/orientd was built from; run 'make' again to install them" >&2; \
		fi; \
	elif [ -d Sources ] && [ -n "$$(find Sources Package.swift -newer "$(BINPATH)/orientd" -print -quit)" ]; then \
		echo "make install: warning: the sources changed since $(BINPATH)/orientd was built (by swift build, which records no digest); run 'make' again to install them" >&2; \
	fi

# Stop the units before their files go: systemd keeps running what it loaded.
uninstall:
	@echo "Before this, as root: systemctl disable --now orientd.socket orientd.service; as each user of the hook:"
	@echo "systemctl --user disable --now orientd-hook.service; after it: systemctl daemon-reload (and --user daemon-reload)."
	rm -f $(DESTDIR)$(BINDIR)/orientd $(DESTDIR)$(BINDIR)/orientctl
	rm -f $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.service $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.socket
	rm -f $(DESTDIR)$(SYSTEMDUSERUNITDIR)/orientd-hook.service $(DESTDIR)$(UDEVRULESDIR)/61-orientd.rules
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/orientd-sensorproxy.conf
	# The drop-in, if REPLACE_IIO_SENSOR_PROXY=yes installed it; its directory only if nothing
	# else is in it.
	rm -f $(DESTDIR)$(IIOSENSORPROXYDROPINDIR)/orientd.conf
	if [ -d $(DESTDIR)$(IIOSENSORPROXYDROPINDIR) ]; then rmdir $(DESTDIR)$(IIOSENSORPROXYDROPINDIR) 2>/dev/null || true; fi
	for hook in $(HOOKS) common.sh; do rm -f $(DESTDIR)$(HOOKSDIR)/$$hook; done
	for doc in $(DOCS); do rm -f $(DESTDIR)$(DOCDIR)/$$doc; done
	rm -f $(DESTDIR)$(MANDIR)/man1/orientctl.1 $(DESTDIR)$(MANDIR)/man5/orientd.conf.5 $(DESTDIR)$(MANDIR)/man8/orientd.8
	rm -f $(DESTDIR)$(BASHCOMPLETIONDIR)/orientd $(DESTDIR)$(BASHCOMPLETIONDIR)/orientctl
	rm -f $(DESTDIR)$(ZSHCOMPLETIONDIR)/_orientd $(DESTDIR)$(ZSHCOMPLETIONDIR)/_orientctl
	rm -f $(DESTDIR)$(FISHCOMPLETIONDIR)/orientd.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/orientctl.fish
	-rmdir $(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DATADIR)/orientd $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)
	# The config file stays if it was edited; remove it by hand if you want it gone.
	if cmp -s config/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf; then \
		rm -f $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf; rmdir $(DESTDIR)$(SYSCONFDIR)/orientd 2>/dev/null || true; fi

# The Debian package of what build made: the files install puts under PREFIX=/usr, in
# Debian 12's places, with maintainer scripts that enable orientd.socket and orientd.service.
deb: build
	BINPATH="$(BINPATH)" MAKE="$(MAKE)" packaging/build-deb

test:
	$(SWIFT) test

clean:
	$(SWIFT) package clean
