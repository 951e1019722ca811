/// What a program's command line accepts, as shell completions need it: its options, and its
/// commands with theirs. orientd's comes from its option table, orientctl's from its command
/// table, so the completions say what `--help` says.
package struct CompletionSpec: Sendable, Equatable {
  /// What follows an option, or what a command takes as its arguments.
  package enum Value: Sendable, Equatable {
    /// Nothing: a flag, or a command without arguments.
    case none
    /// One of these words.
    case choices([String])
    /// A comma-separated list of these words, each at most once (`normal,left-up`), or one
    /// of `alone`, words that stand only for the whole list (`all`).
    case list([String], alone: [String])
    /// A file name.
    case file
    /// A directory name.
    case directory
    /// A command line: a program, then its arguments.
    case command
    /// A group's name.
    case group
    /// Something the shell cannot guess (a number, a URI); `hint` names it.
    case text(hint: String)
  }

  /// An option: `--name`, maybe `-x`, and what follows it.
  package struct Option: Sendable, Equatable {
    /// The long name, without its dashes.
    package var name: String
    /// The one-letter form, without its dash.
    package var short: Character?
    package var value: Value
    /// One line for the shell to show beside it.
    package var summary: String
    /// Whether it ends the command line: nothing else is completed after `--help`.
    package var isTerminal: Bool

    /// An option called `--name` (and `-short`) taking `value`.
    package init(
      _ name: String, short: Character? = nil, value: Value = .none, summary: String, isTerminal: Bool = false
    ) {
      self.name = name
      self.short = short
      self.value = value
      self.summary = summary
      self.isTerminal = isTerminal
    }
  }

  /// A command (`orientctl get`): its options and its arguments.
  package struct Command: Sendable, Equatable {
    package var name: String
    package var summary: String
    package var options: [Option]
    /// What its arguments are: choices (which may be given together, `get --json mode`), a
    /// list, a command line (`hook`), or nothing.
    package var arguments: Value
    /// How its usage line shows its arguments (`[FIELD]`); nil to spell out the choices
    /// (`cw|ccw`), or nothing for a command without arguments.
    package var operands: String?

    /// Creates a command.
    package init(
      _ name: String, summary: String, options: [Option] = [], arguments: Value = .none,
      operands: String? = nil
    ) {
      self.name = name
      self.summary = summary
      self.options = options
      self.arguments = arguments
      self.operands = operands
    }

    /// `name [--flag] [--option VALUE]... OPERANDS`: every option it takes, then its
    /// arguments, for its usage line.
    package var synopsis: String {
      var words = [name]
      for option in options {
        let value = option.placeholder.map { " " + $0 } ?? ""
        words.append("[--\(option.name)\(value)]")
      }
      if let operands {
        words.append(operands)
      } else if case .choices(let choices) = arguments {
        words.append(choices.joined(separator: "|"))
      }
      return words.joined(separator: " ")
    }
  }

  /// The program's name, as the shell sees it.
  package var program: String
  /// The options before (or, for orientctl, also after) the command.
  package var options: [Option]
  /// The commands; empty for a program without commands (orientd).
  package var commands: [Command]

  /// Creates a spec.
  package init(program: String, options: [Option], commands: [Command] = []) {
    self.program = program
    self.options = options
    self.commands = commands
  }

  /// The shells a completion script is written for.
  package enum Shell: String, CaseIterable, Sendable {
    case bash
    case zsh
    case fish
  }

  /// The completion script for `shell`.
  package func script(for shell: Shell) -> String {
    switch shell {
    case .bash: return BashCompletion(spec: self).script
    case .zsh: return ZshCompletion(spec: self).script
    case .fish: return FishCompletion(spec: self).script
    }
  }

  /// A name that is safe in a shell function's name: `orientd-bench` as `orientd_bench`.
  var functionName: String {
    "_" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  /// Whether an option or a command takes a list: the scripts then define the function that
  /// completes one.
  var hasLists: Bool {
    (options + commands.flatMap(\.options)).contains { $0.value.isList }
      || commands.contains { $0.arguments.isList }
  }
}

extension CompletionSpec.Value {
  /// Whether it is a comma-separated list.
  var isList: Bool {
    if case .list = self { return true }
    return false
  }
}

extension CompletionSpec.Option {
  /// `--name`.
  var long: String { "--" + name }

  /// Whether a value follows it.
  var takesValue: Bool { value != .none }

  /// What a usage line shows for its value (`SECONDS`, `LIST`, `cw|ccw`); nil for a flag.
  var placeholder: String? {
    switch value {
    case .none: return nil
    case .choices(let choices): return choices.joined(separator: "|")
    case .list: return "LIST"
    case .file: return "PATH"
    case .directory: return "DIR"
    case .command: return "COMMAND"
    case .group: return "GROUP"
    case .text(let hint): return hint.uppercased()
    }
  }
}
