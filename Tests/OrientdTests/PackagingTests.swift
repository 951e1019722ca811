import Foundation
import Testing

/// The Debian package beside iio-sensor-proxy, and the license it is under. The package keeps
/// iio-sensor-proxy installed but stopped while orientd is installed: a drop-in for its unit
/// (`systemd/iio-sensor-proxy.service.d/orientd.conf.in`, which `make install` installs when
/// asked and the package build asks for) and maintainer scripts that stop it on installation
/// and start it again on removal. Everything runs in the scratch directory: the package is
/// built and unpacked there, systemd reads units from there, and the maintainer scripts run
/// in a mount namespace of their own against stand-ins for systemctl, deb-systemd-invoke,
/// deb-systemd-helper and udevadm that only log their arguments.
@Suite("The Debian package takes iio-sensor-proxy's place without removing it", .scratch)
struct PackagingTests {
  static let debian = TestPaths.packageRoot + "/packaging/debian"
  /// Debian's own unit for iio-sensor-proxy, from its package (scripts/debian-packages-tests).
  static let iioSensorProxyUnit = "/lib/systemd/system/iio-sensor-proxy.service"
  static let dropInDirectory = "iio-sensor-proxy.service.d"

  /// The paragraphs of a deb822 file (a control or machine-readable copyright file) as dpkg's
  /// own parser reads them: it refuses what is not deb822. Continuation lines are joined with
  /// newlines, without their leading space, and ` .` is an empty line.
  static func deb822Paragraphs(_ path: String) throws -> [[String: String]] {
    let perl = try #require(TestPaths.which("perl"), "perl is missing")
    let script = """
      use strict; use warnings; use Dpkg::Control::HashCore; use JSON::PP;
      open(my $fh, "<", $ARGV[0]) or die "$ARGV[0]: $!\\n";
      my @paragraphs;
      while (1) {
        my $c = Dpkg::Control::HashCore->new(allow_duplicate => 0);
        last unless $c->parse($fh, $ARGV[0]);
        push @paragraphs, { map { $_ => $c->{$_} } keys %$c };
      }
      print JSON::PP->new->canonical->encode(\\@paragraphs);
      """
    let parsed = try runToCompletion([perl, "-e", script, path])
    try #require(parsed.status == 0, "dpkg's parser refuses \(path): \(parsed.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: String]],
      "\(parsed.stdout)")
  }

  /// A unit directory in the scratch directory holding a copy of Debian's iio-sensor-proxy.service.
  static func unitDirectoryWithIIOSensorProxy(_ directory: String) throws {
    try #require(
      FileManager.default.fileExists(atPath: iioSensorProxyUnit),
      "Debian's iio-sensor-proxy is not installed (scripts/debian-packages-tests lists it)")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: iioSensorProxyUnit, toPath: directory + "/iio-sensor-proxy.service")
  }

  /// `systemd-analyze verify` of iio-sensor-proxy.service in `directory`: systemd reads the
  /// drop-ins beside it and says what it cannot parse, which it otherwise only ignores.
  static func verifyIIOSensorProxy(in directory: String) throws {
    let analyze = try #require(TestPaths.which("systemd-analyze"), "systemd-analyze is missing")
    let verify = try runToCompletion([analyze, "verify", directory + "/iio-sensor-proxy.service"])
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify.stdout)\(verify.stderr)")
  }

  /// The conditions systemd finds for iio-sensor-proxy.service with only `directory` as the
  /// unit path (its file and drop-ins), and whether they hold on this machine.
  static func iioSensorProxyConditions(in directory: String) throws -> (holds: Bool, output: String) {
    let analyze = try #require(TestPaths.which("systemd-analyze"), "systemd-analyze is missing")
    var environment = try Scratch.current().environment
    environment["SYSTEMD_UNIT_PATH"] = directory
    let condition = try runToCompletion(
      [analyze, "condition", "--unit=iio-sensor-proxy.service"], environment: environment)
    // A unit without conditions prints nothing and holds.
    return (condition.status == 0, condition.stdout + condition.stderr)
  }

  @Test(
    "make install REPLACE_IIO_SENSOR_PROXY=yes installs a drop-in that keeps Debian's iio-sensor-proxy.service from starting while orientd is installed, and make uninstall removes it"
  )
  func dropInFromMakeInstall() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let prefix = try Scratch.current().makeDirectory("prefix")
    // No DESTDIR: the condition names the orientd installed here, which the test can remove.
    let variables = [
      "SWIFT=false", "BINPATH=\(TestPaths.buildDirectory.path)", "PREFIX=\(prefix)/usr",
      "SYSCONFDIR=\(prefix)/etc", "UDEVRULESDIR=\(prefix)/usr/lib/udev/rules.d",
    ]
    let installed = try runToCompletion(
      [make, "-C", TestPaths.packageRoot, "install", "REPLACE_IIO_SENSOR_PROXY=yes"] + variables, timeout: 120
    )
    try #require(installed.status == 0, "\(installed.stderr)")
    let units = "\(prefix)/usr/lib/systemd/system"
    let dropIn = "\(units)/\(Self.dropInDirectory)/orientd.conf"
    let binary = "\(prefix)/usr/bin/orientd"
    let lines = fileText(dropIn).split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines == ["[Unit]", "ConditionPathExists=!\(binary)"], "\(fileText(dropIn))")
    #expect(
      installed.stdout.contains("stop one that runs: systemctl stop iio-sensor-proxy"), "\(installed.stdout)")

    try Self.unitDirectoryWithIIOSensorProxy(units)
    try Self.verifyIIOSensorProxy(in: units)
    // Debian's unit has no condition of its own: this one is the drop-in's, read with it.
    let withOrientd = try Self.iioSensorProxyConditions(in: units)
    #expect(!withOrientd.holds, "\(withOrientd.output)")
    #expect(withOrientd.output.contains("ConditionPathExists=!\(binary) failed."), "\(withOrientd.output)")

    // The binary decides, not the drop-in's presence: without orientd it starts again.
    try FileManager.default.moveItem(atPath: binary, toPath: binary + ".away")
    let withoutOrientd = try Self.iioSensorProxyConditions(in: units)
    #expect(withoutOrientd.holds, "\(withoutOrientd.output)")
    #expect(
      withoutOrientd.output.contains("ConditionPathExists=!\(binary) succeeded."), "\(withoutOrientd.output)")
    try FileManager.default.moveItem(atPath: binary + ".away", toPath: binary)
    #expect(try !Self.iioSensorProxyConditions(in: units).holds)

    let removed = try runToCompletion(
      [make, "-C", TestPaths.packageRoot, "uninstall"] + variables, timeout: 60)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: "\(units)/\(Self.dropInDirectory)"), "the drop-in is left")
    let afterUninstall = try Self.iioSensorProxyConditions(in: units)
    #expect(
      afterUninstall.holds && !afterUninstall.output.contains("ConditionPathExists"),
      "\(afterUninstall.output)")
  }

  @Test(
    "make install without REPLACE_IIO_SENSOR_PROXY installs no drop-in for iio-sensor-proxy, and a value other than yes or no stops it"
  )
  func noDropInUnlessAsked() throws {
    let make = try #require(TestPaths.which("make"), "make is missing")
    let destination = try stagedMakeInstall()
    #expect(FileManager.default.fileExists(atPath: destination + "/usr/lib/systemd/system/orientd.service"))
    #expect(
      !FileManager.default.fileExists(atPath: destination + "/usr/lib/systemd/system/\(Self.dropInDirectory)")
    )

    let other = try Scratch.current().makeDirectory("other")
    let refused = try runToCompletion(
      [
        make, "-C", TestPaths.packageRoot, "install", "SWIFT=false",
        "BINPATH=\(TestPaths.buildDirectory.path)",
        "PREFIX=/usr", "DESTDIR=\(other)", "REPLACE_IIO_SENSOR_PROXY=true",
      ], timeout: 120)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("REPLACE_IIO_SENSOR_PROXY is yes or no, not 'true'"), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty, "installed something")
  }

  /// packaging/build-deb run on the test's own binaries, the package unpacked: its files in
  /// `root`, its control files in `root/DEBIAN`. dpkg-shlibdeps is a stand-in: the test's
  /// binaries link the toolchain's Swift libraries, which no Debian package holds (the release
  /// build links them statically).
  static func builtPackage(environment extra: [String: String?] = [:]) throws -> (deb: String, root: String) {
    let scratch = try Scratch.current()
    let tools = try scratch.makeDirectory("tools")
    let shlibdeps = tools + "/dpkg-shlibdeps"
    try "#!/bin/sh\necho 'shlibs:Depends=libc6 (>= 2.36)'\n".write(
      toFile: shlibdeps, atomically: true, encoding: .utf8)
    chmod(shlibdeps, 0o755)
    let output = try scratch.makeDirectory("out")
    var environment = scratch.environment
    environment["PATH"] = tools + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["BINPATH"] = TestPaths.buildDirectory.path
    environment["OUTDIR"] = output
    environment["SOURCE_DATE_EPOCH"] = "1767225600"
    // sed's special characters in a name, as in a company's.
    environment["DEBFULLNAME"] = "Ada & Tester | Co"
    environment["DEBEMAIL"] = "ada@tester.invalid"
    for (name, value) in extra { environment[name] = value }
    let built = try runToCompletion(
      [TestPaths.packageRoot + "/packaging/build-deb"], environment: environment, timeout: 300)
    try #require(built.status == 0, "build-deb: \(built.stderr)")
    let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(deb.hasPrefix(output + "/orientd_") && deb.hasSuffix(".deb"), "\(built.stdout)")
    let dpkgDeb = try #require(TestPaths.which("dpkg-deb"), "dpkg-deb is missing")
    let root = try scratch.makeDirectory("root")
    let unpacked = try runToCompletion([dpkgDeb, "-x", deb, root])
    try #require(unpacked.status == 0, "\(unpacked.stderr)")
    let control = try runToCompletion([dpkgDeb, "-e", deb, root + "/DEBIAN"])
    try #require(control.status == 0, "\(control.stderr)")
    return (deb, root)
  }

  @Test(
    "The package holds the drop-in for /usr/bin/orientd, Debian's iio-sensor-proxy.service accepts it, and the control file suggests iio-sensor-proxy without conflicting with it"
  )
  func packageReplacesIIOSensorProxy() throws {
    let (_, root) = try Self.builtPackage()
    let dropIn = "\(root)/lib/systemd/system/\(Self.dropInDirectory)/orientd.conf"
    let lines = fileText(dropIn).split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines == ["[Unit]", "ConditionPathExists=!/usr/bin/orientd"], "\(fileText(dropIn))")
    // The condition names the package's own binary.
    #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/bin/orientd"))

    let units = try Scratch.current().makeDirectory("units")
    try Self.unitDirectoryWithIIOSensorProxy(units)
    try FileManager.default.createDirectory(
      atPath: "\(units)/\(Self.dropInDirectory)", withIntermediateDirectories: false)
    try FileManager.default.copyItem(atPath: dropIn, toPath: "\(units)/\(Self.dropInDirectory)/orientd.conf")
    try Self.verifyIIOSensorProxy(in: units)
    // Whether it holds depends on this machine's /usr/bin; that systemd reads it does not.
    let conditions = try Self.iioSensorProxyConditions(in: units)
    #expect(conditions.output.contains("ConditionPathExists=!/usr/bin/orientd "), "\(conditions.output)")

    let control = try Self.deb822Paragraphs(root + "/DEBIAN/control")
    try #require(control.count == 1, "\(control)")
    let fields = control[0]
    #expect(fields["Package"] == "orientd")
    #expect(fields["Suggests"] == "iio-sensor-proxy", "\(fields)")
    for relation in ["Depends", "Pre-Depends", "Recommends", "Conflicts", "Breaks", "Replaces", "Provides"] {
      #expect(
        fields[relation]?.contains("iio-sensor-proxy") != true, "\(relation): \(fields[relation] ?? "")")
    }
    // control.in's comments stay in the sources.
    #expect(!fileText(root + "/DEBIAN/control").split(separator: "\n").contains { $0.hasPrefix("#") })

    for script in ["postinst", "prerm", "postrm"] {
      #expect(fileText("\(root)/DEBIAN/\(script)") == fileText("\(Self.debian)/\(script)"), "\(script)")
      #expect(FileManager.default.isExecutableFile(atPath: "\(root)/DEBIAN/\(script)"), "\(script)")
    }
    #expect(
      fileText(root + "/usr/share/doc/orientd/copyright") == fileText(Self.debian + "/copyright"),
      "the package's copyright file")
  }

  @Test(
    "The package is reproducible: two builds are the same bytes, every time is SOURCE_DATE_EPOCH, docs over 4 kB are compressed, the maintainer is the builder's"
  )
  func packageIsReproducible() throws {
    let first = try Self.builtPackage()
    let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first.deb))
    // Built again in other directories: nothing of the build's place (its moment: the times below).
    let second = try Self.builtPackage()
    #expect(first.deb != second.deb, "the premise: two builds, two files")
    #expect(try Data(contentsOf: URL(fileURLWithPath: second.deb)) == firstBytes, "the same bytes")

    let dpkgDeb = try #require(TestPaths.which("dpkg-deb"))
    let listing = try runToCompletion([dpkgDeb, "--contents", first.deb])
    try #require(listing.status == 0, "\(listing.stderr)")
    let times = Set(
      completeLines(listing.stdout).map {
        $0.split(separator: " ", omittingEmptySubsequences: true)[3...4].joined(separator: " ")
      })
    #expect(times == ["2026-01-01 00:00"], "\(times)")
    let fields = try Self.deb822Paragraphs(first.root + "/DEBIAN/control")[0]
    #expect(fields["Maintainer"] == "Ada & Tester | Co <ada@tester.invalid>", "\(fields)")

    let doc = first.root + "/usr/share/doc/orientd"
    let files = try FileManager.default.subpathsOfDirectory(atPath: doc).filter {
      var directory: ObjCBool = false
      return FileManager.default.fileExists(atPath: doc + "/" + $0, isDirectory: &directory)
        && !directory.boolValue
    }
    #expect(files.contains("README.md.gz"), "\(files)")
    for file in files where !file.hasSuffix(".gz") {
      let size = try FileManager.default.attributesOfItem(atPath: doc + "/" + file)[.size] as? Int ?? 0
      #expect(size <= 4096, "\(file) is \(size) bytes and not compressed")
    }

    // With no maintainer anywhere (outside a checkout), the build refuses rather than invent one.
    let unknown = try runToCompletion(
      [TestPaths.packageRoot + "/packaging/build-deb"],
      environment: try Self.bareEnvironment())
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("set DEBFULLNAME and DEBEMAIL"), "\(unknown.stderr)")
  }

  /// The environment of a build outside a git checkout (GIT_DIR leads nowhere) with no
  /// maintainer given.
  static func bareEnvironment() throws -> [String: String] {
    var environment = try Scratch.current().environment
    environment["BINPATH"] = TestPaths.buildDirectory.path
    environment["OUTDIR"] = try Scratch.current().makeDirectory("bare")
    environment["GIT_DIR"] = try Scratch.current().makeDirectory("no-git")
    for name in ["DEB_MAINTAINER", "DEBEMAIL", "DEBFULLNAME"] { environment[name] = nil }
    return environment
  }

  @Test(
    "The copyright file is machine-readable (DEP-5): every file under Apache-2.0, by the orientd authors, with the license's short text"
  )
  func copyrightIsDep5() throws {
    let paragraphs = try Self.deb822Paragraphs(Self.debian + "/copyright")
    try #require(paragraphs.count >= 3, "\(paragraphs)")
    let header = paragraphs[0]
    #expect(header["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    #expect(header["Upstream-Name"] == "orientd")
    #expect(header["Files"] == nil && header["License"] == nil, "\(header)")

    let files = paragraphs.dropFirst().filter { $0["Files"] != nil }
    try #require(files.count == 1, "\(paragraphs)")
    #expect(files[0]["Files"] == "*")
    #expect(files[0]["Copyright"] == "2026 the orientd authors")
    // A short name alone: its text is in a stand-alone License paragraph.
    #expect(files[0]["License"] == "Apache-2.0")

    let licenses = paragraphs.dropFirst().filter { $0["Files"] == nil }
    try #require(licenses.count == 1, "\(paragraphs)")
    let license = try #require(licenses[0]["License"])
    let text = license.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(text.first == "Apache-2.0", "\(license)")
    #expect(license.contains("Licensed under the Apache License, Version 2.0"), "\(license)")
    #expect(license.contains("\"/usr/share/common-licenses/Apache-2.0\""), "\(license)")
    #expect(!license.lowercased().contains("no license"), "\(license)")
  }

  @Test(
    "LICENSE holds Apache License 2.0's whole text under the orientd authors' notice; the README names it")
  func licenseFile() throws {
    let license = fileText(TestPaths.packageRoot + "/LICENSE")
    #expect(license.hasPrefix("Copyright 2026 the orientd authors\n"), "\(license.prefix(200))")
    let apache = fileText("/usr/share/common-licenses/Apache-2.0")
    try #require(apache.contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"))
    #expect(license.contains(apache), "LICENSE lacks the license's text as Debian has it")
    let readme = fileText(TestPaths.packageRoot + "/README.md").replacingOccurrences(of: "\n", with: " ")
    #expect(readme.contains("licensed under the Apache License 2.0, whose text is in `LICENSE`"))
    #expect(!readme.contains("No license has been chosen"))
  }

  /// What the stand-ins answer for `systemctl is-enabled iio-sensor-proxy.service`: nothing
  /// (systemd 252 on a unit that does not exist), not-found (later systemd), static (Debian's
  /// unit, which has no [Install] section), or masked.
  enum IIOSensorProxy: String, CaseIterable, CustomTestStringConvertible {
    case missing = ""
    case notFound = "not-found"
    case installed = "static"
    case masked = "masked"
    var testDescription: String { self == .missing ? "not installed" : rawValue }
  }

  /// Runs the maintainer script `script` with `arguments` as dpkg would, in a mount namespace
  /// with a tmpfs on /run (holding /run/systemd/system when `systemd` runs), with stand-ins
  /// for the tools it calls first on PATH. Returns the calls they logged, one a line.
  static func runMaintainerScript(
    _ script: String, _ arguments: [String], iioSensorProxy: IIOSensorProxy, systemd: Bool = true
  ) throws -> [String] {
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    let scratch = try Scratch.current()
    let tools = try scratch.makeDirectory("tools")
    let log = tools + "/calls.log"
    let standIn = """
      #!/bin/sh
      printf '%s\\n' "${0##*/} $*" >>"$STAND_IN_LOG"
      case "${0##*/} $*" in
      "systemctl --system is-enabled iio-sensor-proxy.service")
        case "$STAND_IN_IIO_SENSOR_PROXY" in
        "") echo "Failed to get unit file state for iio-sensor-proxy.service: No such file or directory" >&2; exit 1 ;;
        static) echo static ;;
        *) echo "$STAND_IN_IIO_SENSOR_PROXY"; exit 1 ;;
        esac ;;
      "deb-systemd-helper --quiet was-enabled "*) exit 0 ;;
      esac
      exit 0

      """
    for name in ["systemctl", "deb-systemd-invoke", "deb-systemd-helper", "udevadm"] {
      try standIn.write(toFile: "\(tools)/\(name)", atomically: true, encoding: .utf8)
      chmod("\(tools)/\(name)", 0o755)
    }
    var environment = scratch.environment
    environment["PATH"] = tools + ":/usr/sbin:/usr/bin:/sbin:/bin"
    environment["STAND_IN_LOG"] = log
    environment["STAND_IN_IIO_SENSOR_PROXY"] = iioSensorProxy.rawValue
    // The script sees /run/systemd/system only in the namespace's own /run.
    let setUp = """
      mount -t tmpfs tmpfs /run || exit 90
      if [ "$1" = yes ]; then mkdir -p /run/systemd/system || exit 91; fi
      shift
      exec "$@"
      """
    let run = try runToCompletion(
      [
        unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", setUp, "sh", systemd ? "yes" : "no",
        "\(debian)/\(script)",
      ] + arguments, environment: environment)
    #expect(run.status == 0, "\(script) \(arguments): \(run.stderr)")
    return fileText(log).split(separator: "\n").map(String.init)
  }

  @Test("The maintainer scripts are POSIX sh that sh -n accepts")
  func scriptsParse() throws {
    for script in ["postinst", "prerm", "postrm"] {
      let path = "\(Self.debian)/\(script)"
      #expect(fileText(path).hasPrefix("#!/bin/sh\n"), "\(script)")
      for shell in ["/bin/sh", "/bin/dash"] where FileManager.default.isExecutableFile(atPath: shell) {
        let parsed = try runToCompletion([shell, "-n", path])
        #expect(parsed.status == 0, "\(shell) -n \(script): \(parsed.stderr)")
      }
    }
  }

  @Test(
    "postinst configure stops a running iio-sensor-proxy after systemd has read the drop-in, and leaves one that is not installed alone",
    arguments: IIOSensorProxy.allCases, ["", "0.1"])
  func postinstStopsIIOSensorProxy(iioSensorProxy: IIOSensorProxy, previous: String) throws {
    let calls = try Self.runMaintainerScript(
      "postinst", ["configure", previous], iioSensorProxy: iioSensorProxy)
    let stop = "deb-systemd-invoke stop iio-sensor-proxy.service"
    switch iioSensorProxy {
    case .installed, .masked:
      // A masked iio-sensor-proxy may still run: masking does not stop it.
      let reload = try #require(calls.firstIndex(of: "systemctl --system daemon-reload"), "\(calls)")
      let stopped = try #require(calls.firstIndex(of: stop), "\(calls)")
      #expect(reload < stopped, "\(calls)")
      #expect(calls.filter { $0 == stop }.count == 1, "\(calls)")
    case .missing, .notFound:
      #expect(
        calls.filter { $0.contains("iio-sensor-proxy") } == [
          "systemctl --system is-enabled iio-sensor-proxy.service"
        ], "\(calls)")
    }
    // Nothing of iio-sensor-proxy is ever started, masked or unmasked by orientd's postinst.
    #expect(
      !calls.contains { $0.contains("iio-sensor-proxy") && ($0.contains("start") || $0.contains("mask")) },
      "\(calls)")
    #expect(calls.contains("deb-systemd-invoke start orientd.socket"), "\(calls)")
  }

  @Test(
    "postrm remove starts iio-sensor-proxy again through udev once systemd has forgotten the drop-in, unless it is not installed or masked",
    arguments: IIOSensorProxy.allCases)
  func postrmStartsIIOSensorProxy(iioSensorProxy: IIOSensorProxy) throws {
    let calls = try Self.runMaintainerScript("postrm", ["remove"], iioSensorProxy: iioSensorProxy)
    let trigger = "udevadm trigger --action=add --property-match=IIO_SENSOR_PROXY_TYPE=*"
    let triggers = calls.filter { $0.hasPrefix("udevadm") }
    switch iioSensorProxy {
    case .installed:
      #expect(triggers == [trigger], "\(calls)")
      let reload = try #require(calls.firstIndex(of: "systemctl --system daemon-reload"), "\(calls)")
      let triggered = try #require(calls.firstIndex(of: trigger), "\(calls)")
      #expect(reload < triggered, "\(calls)")
    case .missing, .notFound, .masked:
      #expect(triggers.isEmpty, "\(calls)")
    }
    // Its mask, if any, is the administrator's; and deb-systemd-invoke would not start it.
    #expect(
      !calls.contains { $0.contains("iio-sensor-proxy") && !$0.hasPrefix("systemctl --system is-enabled") },
      "\(calls)")
  }

  @Test(
    "Without a running systemd (a chroot, an image build) postinst and postrm leave iio-sensor-proxy alone")
  func withoutSystemd() throws {
    let postinst = try Self.runMaintainerScript(
      "postinst", ["configure", ""], iioSensorProxy: .installed, systemd: false)
    let postrm = try Self.runMaintainerScript(
      "postrm", ["remove"], iioSensorProxy: .installed, systemd: false)
    for call in postinst + postrm {
      #expect(call.hasPrefix("deb-systemd-helper "), "\(call)")
    }
    #expect(!postinst.isEmpty && !postrm.isEmpty, "the stand-ins logged nothing: \(postinst) \(postrm)")
  }
}
