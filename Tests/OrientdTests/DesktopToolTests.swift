import Foundation
import Testing

/// The shipped hooks against stand-ins that answer as the compositors' own tools do (their
/// replies and exit statuses taken from the tools' sources), beyond the plain calls that
/// ExampleHookTests checks.
@Suite("The desktop hooks and what the compositors' tools answer", .scratch)
struct DesktopToolTests {
  /// Replaces the stand-in `name` with `body` (a shell script that may record its call with
  /// `record`).
  func replace(_ name: String, in stubs: DesktopStubs, with body: String) throws {
    let record =
      "printf '%s' \"$(basename \"$0\")\" >> \(stubs.log); printf '|%s' \"$@\" >> \(stubs.log); echo >> \(stubs.log)"
    let script = "#!/bin/sh\nrecord() { \(record); }\n\(body)\n"
    try script.write(toFile: stubs.directory + "/" + name, atomically: true, encoding: .utf8)
    chmod(stubs.directory + "/" + name, 0o755)
  }

  func run(_ hook: String, _ stubs: DesktopStubs, for orientation: String, extra: [String: String] = [:])
    throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/" + hook],
      environment: stubs.environment(for: orientation, extra: extra))
  }

  @Test("On GNOME auto says GNOME rotates by itself from orientd's D-Bus service, not that orientd lacks one")
  func gnomeMessage() throws {
    let stubs = try DesktopStubs()
    let result = try run(
      "auto", stubs, for: "left-up", extra: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"])
    #expect(result.status == 69)
    #expect(
      result.stderr.contains("GNOME rotates by itself from orientd's net.hadess.SensorProxy"),
      "\(result.stderr)")
    #expect(!result.stderr.contains("until orientd serves"), "\(result.stderr)")
  }

  /// A kscreen-doctor that, like the real one (a QGuiApplication), needs Qt's wayland platform
  /// to find KWin when there is no X display: without it Qt aborts (134). It prints its
  /// configuration dump on every run, and fails for an output it does not know.
  func kscreenDoctor(_ stubs: DesktopStubs) throws {
    try replace(
      "kscreen-doctor", in: stubs,
      with: """
        if [ "${1:-}" = --outputs ]; then printf 'Output: 1 HDMI-A-1 enabled connected\\nOutput: 2 eDP-1 enabled connected\\n'; exit 0; fi
        if [ "${QT_QPA_PLATFORM:-}" != wayland ] && [ "${XDG_SESSION_TYPE:-}" != wayland ] && [ -z "${DISPLAY:-}" ]; then
          echo 'qt.qpa.xcb: could not connect to display' >&2; exit 134
        fi
        record "$@"
        case "$1" in output.eDP-1.*) ;; *) echo "kscreen-doctor: output not found" >&2; exit 1 ;; esac
        printf 'Setting rotation\\nOutput: 2 eDP-1 enabled connected\\n\\tModes: 1:2880x1800@90\\n\\tGeometry: 0,0 1920x1200\\n'
        """)
  }

  @Test("kde on Wayland gives kscreen-doctor Qt's wayland platform, and prints its output only on failure")
  func kdeOnWayland() throws {
    let stubs = try DesktopStubs()
    try kscreenDoctor(stubs)
    let result = try run("kde", stubs, for: "left-up", extra: ["WAYLAND_DISPLAY": "wayland-0"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(stubs.calls == ["kscreen-doctor|output.eDP-1.rotation.left"])
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")

    let failing = try DesktopStubs()
    try kscreenDoctor(failing)
    let failed = try run(
      "kde", failing, for: "left-up", extra: ["WAYLAND_DISPLAY": "wayland-0", "ORIENTD_OUTPUT": "DSI-9"])
    #expect(failed.status == 1, "\(failed.stderr)")
    #expect(failed.stderr.contains("kscreen-doctor: output not found"), "\(failed.stderr)")
    #expect(failed.stderr.contains("kscreen-doctor output.DSI-9.rotation.left failed"), "\(failed.stderr)")
  }

  @Test("sway prints nothing of swaymsg's replies when they succeed, and swaymsg's error when one fails")
  func swayQuiet() throws {
    let stubs = try DesktopStubs()
    // swaymsg prints its reply (`[ { "success": true } ]`) unless -q, and exits 2 when a
    // command fails (swaymsg/main.c).
    try replace(
      "swaymsg", in: stubs,
      with: """
        if [ "${1:-}" = -t ]; then printf '[ {"name": "eDP-1"} ]\\n'; exit 0; fi
        [ "${1:-}" = -q ] && shift
        record "$@"
        if [ "$1" = output ] && [ "$2" != eDP-1 ]; then printf '[\\n  {\\n    "success": false,\\n    "error": "Unknown output %s"\\n  }\\n]\\n' "$2"; exit 2; fi
        printf '[\\n  {\\n    "success": true\\n  }\\n]\\n'
        """)
    let result = try run("sway", stubs, for: "right-up")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(stubs.calls.first == "swaymsg|output|eDP-1|transform|90", "\(stubs.calls)")

    let failed = try run("sway", stubs, for: "right-up", extra: ["ORIENTD_OUTPUT": "HDMI-9"])
    #expect(failed.status == 2, "\(failed.stderr)")
    #expect(failed.stdout.isEmpty, "\(failed.stdout)")
    #expect(failed.stderr.contains("Unknown output HDMI-9"), "\(failed.stderr)")
  }

  /// `hyprctl monitors` of a recent Hyprland (src/ipc/s1/Commands.cpp's text format): the panel
  /// at 10 bits, VRR on, HDR colour management, mirroring nothing; and hyprctl's replies to
  /// `keyword` and `eval` as `reply` says.
  func hyprctl(_ stubs: DesktopStubs, keyword: String, eval: String, mirror: String = "none") throws {
    try replace(
      "hyprctl", in: stubs,
      with: """
        if [ "${1:-}" = monitors ]; then
          printf 'Monitor HDMI-A-1 (ID 1):\\n\\t2560x1440@59.95100 at 1920x0\\n\\tscale: 1.00\\n\\ttransform: 0\\n\\tvrr: false\\n\\tcurrentFormat: XRGB8888\\n\\tmirrorOf: none\\n\\tcolorManagementPreset: srgb\\n\\n'
          printf 'Monitor eDP-1 (ID 0):\\n\\t2880x1800@90.00100 at 0x0\\n\\tdescription: BOE 0x0AF8\\n\\tscale: 1.50\\n\\ttransform: 0\\n\\tvrr: true\\n\\tcurrentFormat: XRGB2101010\\n\\tmirrorOf: \(mirror)\\n\\tcolorManagementPreset: hdr\\n\\tsdrBrightness: 1.2\\n\\tsdrSaturation: 1\\n\\n'
          exit 0
        fi
        record "$@"
        case "$1" in keyword) echo "\(keyword)" ;; eval) echo "\(eval)" ;; esac
        """)
  }

  @Test(
    "hyprland keeps the rule's bit depth, VRR, colour management and SDR brightness through hyprctl keyword")
  func hyprlandKeepsTheRule() throws {
    let stubs = try DesktopStubs()
    try hyprctl(stubs, keyword: "ok", eval: "unknown request")
    let result = try run("hyprland", stubs, for: "bottom-up")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(
      stubs.calls == [
        "hyprctl|keyword|monitor|eDP-1,2880x1800@90.00100,0x0,1.50,transform,2,bitdepth,10,vrr,1,cm,hdr,sdrbrightness,1.2",
        "hyprctl|keyword|input:touchdevice:transform|2",
        "hyprctl|keyword|input:tablet:transform|2",
      ])
  }

  @Test("hyprland keeps a mirror, named as the rule names it")
  func hyprlandKeepsTheMirror() throws {
    let stubs = try DesktopStubs()
    try hyprctl(stubs, keyword: "ok", eval: "unknown request", mirror: "1")
    #expect(try run("hyprland", stubs, for: "left-up").status == 0)
    #expect(stubs.calls.first?.contains(",mirror,HDMI-A-1") == true, "\(stubs.calls)")
  }

  @Test(
    "hyprland turns to hyprctl eval where keyword is refused (the Lua config) or gone",
    arguments: ["keyword can't work with non-legacy parsers. Use eval.", "unknown request"])
  func hyprlandEval(refusal: String) throws {
    let stubs = try DesktopStubs()
    try hyprctl(stubs, keyword: refusal, eval: "ok")
    let result = try run("hyprland", stubs, for: "left-up")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(
      stubs.calls == [
        "hyprctl|keyword|monitor|eDP-1,2880x1800@90.00100,0x0,1.50,transform,1,bitdepth,10,vrr,1,cm,hdr,sdrbrightness,1.2",
        #"hyprctl|eval|hl.monitor({ output = "eDP-1", mode = "2880x1800@90.00100", position = "0x0", scale = "1.50", transform = 1, bitdepth = 10, vrr = 1, cm = "hdr", sdrbrightness = 1.2 })"#,
        "hyprctl|eval|hl.config({ input = { touchdevice = { transform = 1 }, tablet = { transform = 1 } } })",
      ])
  }

  @Test("hyprland fails naming both replies when neither keyword nor eval is taken")
  func hyprlandNeither() throws {
    let stubs = try DesktopStubs()
    try hyprctl(stubs, keyword: "unknown request", eval: "eval is only supported with the lua config manager")
    let result = try run("hyprland", stubs, for: "left-up")
    #expect(result.status == 1)
    #expect(result.stderr.contains("unknown request"), "\(result.stderr)")
    #expect(result.stderr.contains("eval is only supported"), "\(result.stderr)")
  }

  @Test("wlroots says so when the panel has no current mode, instead of a bare failure of wlr-randr")
  func wlrootsWithoutMode() throws {
    let stubs = try DesktopStubs()
    // sway's headless outputs as wlr-randr lists them: no modes at all.
    try replace(
      "wlr-randr", in: stubs,
      with: """
        if [ $# = 0 ]; then printf 'HEADLESS-1 "Headless output 1"\\n  Enabled: yes\\n  Position: 0,0\\n  Transform: normal\\n  Scale: 1.000000\\n'; exit 0; fi
        record "$@"
        echo 'failed to apply configuration' >&2; exit 1
        """)
    let result = try run("wlroots", stubs, for: "left-up", extra: ["ORIENTD_OUTPUT": "HEADLESS-1"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("HEADLESS-1 has no current mode"), "\(result.stderr)")
    #expect(stubs.calls.isEmpty, "\(stubs.calls)")
  }

  @Test("The README says which variables the hook's user unit must get from the session")
  func readmeNamesTheVariables() throws {
    let readme = fileText(TestPaths.packageRoot + "/README.md")
    #expect(readme.contains("import-environment"))
    for variable in [
      "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DISPLAY", "XAUTHORITY", "HYPRLAND_INSTANCE_SIGNATURE",
    ] {
      #expect(readme.contains(variable), "\(variable)")
    }
  }
}
