/// A fish completion script (`complete -c`) from a `CompletionSpec`.
struct FishCompletion {
  let spec: CompletionSpec

  var script: String {
    var lines = [
      "# fish completion for \(spec.program), written by the program itself from its own",
      "# option table: regenerate it rather than edit it.",
      // No file names unless an option or command takes one.
      "complete -c \(spec.program) -f",
    ]
    if spec.hasLists { lines.append(listFunction) }
    for option in spec.options { lines.append(line(option, when: nil)) }
    for command in spec.commands {
      lines.append(
        "complete -c \(spec.program) -n __fish_use_subcommand -a \(command.name) -d \(Self.quoted(command.summary))"
      )
    }
    for command in spec.commands {
      let condition = "'__fish_seen_subcommand_from \(command.name)'"
      for option in command.options { lines.append(line(option, when: condition)) }
      switch command.arguments {
      case .none, .text: break
      case .choices(let words):
        lines.append(
          "complete -c \(spec.program) -n \(condition) -a \(Self.quoted(words.joined(separator: " ")))")
      case .list(let words, let alone):
        lines.append(
          "complete -c \(spec.program) -n \(condition) -a \(Self.quoted(listCall(words, alone: alone)))")
      case .file: lines.append("complete -c \(spec.program) -n \(condition) -F")
      case .directory:
        lines.append("complete -c \(spec.program) -n \(condition) -a '(__fish_complete_directories)'")
      case .group: lines.append("complete -c \(spec.program) -n \(condition) -a '(__fish_complete_groups)'")
      case .command:
        lines.append("complete -c \(spec.program) -n \(condition) -F -a '(__fish_complete_command)'")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The name of the function that completes a comma-separated list.
  private var listName: String { "_" + spec.functionName + "_list" }

  /// The function that completes a comma-separated list: fish keeps the candidates that
  /// start with the token, so each is the whole list so far with one more word.
  private var listFunction: String {
    """
    # Completes a comma-separated list, each word once: `\(listName) ALONE WORDS`, ALONE and
    # WORDS comma-separated; ALONE (`all`) stand only for the whole list.
    function \(listName)
        # The token, without an option's `--name=`; quoted, so that string never reads stdin.
        set -l token (commandline -ct)
        set token (string replace -r -- '^--[^=]*=' '' "$token")
        # The words given before the one being completed, with their last comma.
        set -l prefix (string replace -r -- '[^,]*$' '' "$token")
        if test -z "$prefix"
            string split -n , -- $argv[1] $argv[2]
            return 0
        end
        set -l given (string split -n , -- "$prefix")
        for word in (string split -n , -- $argv[2])
            contains -- $word $given; or printf '%s%s\\n' "$prefix" $word
        end
    end
    """
  }

  /// The command substitution that lists the candidates for a list of `words`.
  private func listCall(_ words: [String], alone: [String]) -> String {
    "(\(listName) \"\(alone.joined(separator: ","))\" \(words.joined(separator: ",")))"
  }

  private func line(_ option: CompletionSpec.Option, when condition: String?) -> String {
    var words = ["complete", "-c", spec.program]
    if let condition { words += ["-n", condition] }
    if let short = option.short { words += ["-s", String(short)] }
    words += ["-l", option.name]
    switch option.value {
    case .none: break
    case .choices(let choices): words += ["-x", "-a", Self.quoted(choices.joined(separator: " "))]
    case .list(let list, let alone): words += ["-x", "-a", Self.quoted(listCall(list, alone: alone))]
    case .file: words += ["-r", "-F"]
    case .directory: words += ["-x", "-a", "'(__fish_complete_directories)'"]
    case .group: words += ["-x", "-a", "'(__fish_complete_groups)'"]
    case .command: words += ["-x", "-a", "'(__fish_complete_command)'"]
    case .text: words += ["-x"]
    }
    words += ["-d", Self.quoted(option.summary)]
    return words.joined(separator: " ")
  }

  /// `text` in single quotes, as fish reads them (backslash escapes `'` and itself).
  static func quoted(_ text: String) -> String {
    "'" + text.replacingCharacters { $0 == "\\" || $0 == "'" ? "\\\($0)" : nil } + "'"
  }
}
