import Foundation
import Testing

@testable import OrientCore

/// Stand-ins for notify-send and orientctl: each records its call, one per line, arguments
/// separated by `|`; notify-send then prints the action named in `NOTIFY_PICK` (the action
/// the user chooses), or nothing (the notification was dismissed or expired).
private struct NotifyStubs {
  let directory: String
  let log: String

  init() throws {
    directory = try Scratch.current().makeDirectory("notify-stubs")
    log = directory + "/calls.log"
    let record = "printf '%s' \"$(basename \"$0\")\" >> \(log); printf '|%s' \"$@\" >> \(log); echo >> \(log)"
    for (name, reply) in [("notify-send", "printf '%s\\n' \"${NOTIFY_PICK:-}\""), ("orientctl", "")] {
      let path = directory + "/" + name
      try "#!/bin/sh\n\(record)\n\(reply)\n".write(toFile: path, atomically: true, encoding: .utf8)
      chmod(path, 0o755)
    }
  }

  /// The calls recorded so far.
  var calls: [String] { completeLines(fileText(log)) }

  /// Runs `hook` with the variables orientd gives a hook for `event` with `suggestion`, the
  /// screen locked normal; returns its status.
  func run(_ hook: String, event: HookEvent, suggestion: ScreenOrientation?, pick: String = "") throws
    -> Int32
  {
    var environment = ["PATH": directory + ":/usr/bin:/bin", "HOME": directory, "NOTIFY_PICK": pick]
    let variables =
      HookEnvironment.variables(orientation: .normal, previous: .normal, device: suggestion?.device)
      + event.variables(suggestion: suggestion)
    for (name, value) in variables { environment[name] = value }
    return try runToCompletion([TestPaths.packageRoot + "/config/hooks/" + hook], environment: environment)
      .status
  }
}

@Suite("The notify hook and the display hooks on a rotation suggestion, against stand-in tools", .scratch)
struct NotifyHookTests {
  @Test(
    "notify shows the suggestion with an action, and choosing the action runs orientctl accept-suggestion")
  func actionAccepts() throws {
    let stubs = try NotifyStubs()
    #expect(try stubs.run("notify", event: .suggestion, suggestion: .leftUp, pick: "accept") == 0)
    // notify-send waits for the choice in the background: the hook itself is done at once.
    #expect(waitForFile(stubs.log, toContain: "orientctl|accept-suggestion"), "calls: \(stubs.calls)")
    #expect(
      stubs.calls == [
        "notify-send|--app-name=orientd|--urgency=low|--expire-time=5000"
          + "|--hint=string:x-canonical-private-synchronous:orientd-suggestion|--action=accept=Turn to left-up"
          + "|Turn the screen?|The device is turned left-up; the screen is locked.",
        "orientctl|accept-suggestion",
      ])
  }

  @Test("notify does nothing for a turn, a mode, or a suggestion that went")
  func otherEvents() throws {
    let stubs = try NotifyStubs()
    #expect(try stubs.run("notify", event: .orientation, suggestion: .leftUp, pick: "accept") == 0)
    #expect(try stubs.run("notify", event: .mode, suggestion: nil, pick: "accept") == 0)
    #expect(try stubs.run("notify", event: .suggestion, suggestion: nil, pick: "accept") == 0)
    // Each exits before it could start anything in the background: nothing can come later.
    #expect(stubs.calls.isEmpty)
    // The premise: the same stand-ins do record a suggestion.
    #expect(try stubs.run("notify", event: .suggestion, suggestion: .rightUp) == 0)
    #expect(waitForFile(stubs.log, toContain: "notify-send|"))
  }

  @Test(
    "The display hooks leave the screen alone on a suggestion, and turn it on a turn",
    arguments: ["x11", "sway", "hyprland", "kde", "wlroots", "auto"])
  func displayHooksSkipSuggestions(hook: String) throws {
    let stubs = try DesktopStubs()
    var suggestion = HookEvent.suggestion.variables(suggestion: .leftUp).reduce(into: [:]) {
      $0[$1.name] = $1.value
    }
    suggestion["ORIENTD_HOOK"] = hook == "auto" ? "x11" : nil
    #expect(try stubs.run(hook, for: "normal", extra: suggestion) == 0)
    #expect(stubs.calls.isEmpty, "\(hook) acted on a suggestion: \(stubs.calls)")
    // The premise: the same hook with the same stand-ins turns the screen for a turn.
    var turn = HookEvent.orientation.variables(suggestion: .leftUp).reduce(into: [:]) {
      $0[$1.name] = $1.value
    }
    turn["ORIENTD_HOOK"] = hook == "auto" ? "x11" : nil
    #expect(try stubs.run(hook, for: "normal", extra: turn) == 0)
    #expect(!stubs.calls.isEmpty, "\(hook) did nothing for a turn")
  }
}
