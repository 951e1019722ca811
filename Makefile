# orientd: build and install.
#   make                      release build, as yourself (swift need not be on root's PATH)
#   sudo make install         install what make built, under PREFIX (default /usr/local);
#                             DESTDIR for staging; BINPATH=DIR installs binaries built elsewhere
#   make uninstall            remove what install put there
#   make deb                  release build, then orientd_VERSION_ARCH.deb (packaging/build-deb)
#   make test                 the test suite

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
HOOKSDIR ?= $(DATADIR)/orientd/hooks
DOCDIR ?= $(DATADIR)/doc/orientd
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

HOOKS = auto x11 sway hyprland kde wlroots
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@HOOKSDIR@|$(HOOKSDIR)|g' \
	-e 's|@DOCDIR@|$(DOCDIR)|g'

.PHONY: all build install check-built uninstall deb test clean

all: build

build:
	$(SWIFT) build -c release $(RELEASEFLAGS) --product orientd
	$(SWIFT) build -c release $(RELEASEFLAGS) --product orientctl

install: check-built
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/orientd \
		$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR) $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(DBUSPOLICYDIR)
	install -m 0755 "$(BINPATH)/orientd" $(DESTDIR)$(BINDIR)/orientd
	install -m 0755 "$(BINPATH)/orientctl" $(DESTDIR)$(BINDIR)/orientctl
	$(SUBST) systemd/orientd.service.in > $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.service
	$(SUBST) systemd/orientd.socket.in > $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.socket
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	$(SUBST) systemd/user/orientd-hook.service.in > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/orientd-hook.service
	install -m 0644 systemd/61-orientd.rules $(DESTDIR)$(UDEVRULESDIR)/61-orientd.rules
	install -m 0644 dbus/orientd-sensorproxy.conf $(DESTDIR)$(DBUSPOLICYDIR)/orientd-sensorproxy.conf
	install -m 0644 config/hooks/common.sh $(DESTDIR)$(HOOKSDIR)/common.sh
	for hook in $(HOOKS); do install -m 0755 config/hooks/$$hook $(DESTDIR)$(HOOKSDIR)/$$hook; done
	# Never overwrite a config the administrator has edited.
	test -e $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf || \
		install -m 0644 config/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd/orientd.conf
	@echo "Installed. Next: systemctl daemon-reload && systemctl enable --now orientd.socket orientd.service"

# install copies; it does not build (as root, swift is often not on PATH, and a build would
# leave root-owned files in .build).
check-built:
	@for binary in orientd orientctl; do \
		if [ ! -x "$(BINPATH)/$$binary" ]; then \
			echo "make install: $$binary is not built in $(BINPATH): run 'make' as yourself first, then 'sudo make install' (or give BINPATH=DIR where orientd and orientctl are)" >&2; \
			exit 1; \
		fi; \
	done
	@if [ -d Sources ] && [ -n "$$(find Sources Package.swift -newer "$(BINPATH)/orientd" -print -quit)" ]; then \
		echo "make install: warning: the sources changed since $(BINPATH)/orientd was built; run 'make' again to install them" >&2; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/orientd $(DESTDIR)$(BINDIR)/orientctl
	rm -f $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.service $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/orientd.socket
	rm -f $(DESTDIR)$(SYSTEMDUSERUNITDIR)/orientd-hook.service $(DESTDIR)$(UDEVRULESDIR)/61-orientd.rules
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/orientd-sensorproxy.conf
	for hook in $(HOOKS) common.sh; do rm -f $(DESTDIR)$(HOOKSDIR)/$$hook; done
	rm -f $(DESTDIR)$(DOCDIR)/README.md
	-rmdir $(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DATADIR)/orientd $(DESTDIR)$(DOCDIR)
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
