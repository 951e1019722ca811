/// Where the mount matrix in use came from, in the order they are tried.
package enum MountMatrixSource: Equatable, Sendable, CustomStringConvertible {
  /// The `--mount-matrix` option.
  case option
  /// The udev property `ACCEL_MOUNT_MATRIX` (usually from systemd's hwdb).
  case udev
  /// A sysfs attribute, with its file name.
  case sysfs(String)
  /// No source parsed; the identity matrix is used.
  case identity

  package var description: String {
    switch self {
    case .option: return "option --mount-matrix"
    case .udev: return "udev ACCEL_MOUNT_MATRIX"
    case .sysfs(let file): return "sysfs \(file)"
    case .identity: return "identity (no matrix found)"
    }
  }

  /// Where exactly, e.g. `ACCEL_MOUNT_MATRIX` or `in_accel_mount_matrix`.
  package var detail: String {
    switch self {
    case .option: return "--mount-matrix"
    case .udev: return "ACCEL_MOUNT_MATRIX"
    case .sysfs(let file): return file
    case .identity: return "no matrix found"
    }
  }

  /// A one-word kind: option, udev, sysfs or identity.
  package var kind: String {
    switch self {
    case .option: return "option"
    case .udev: return "udev"
    case .sysfs: return "sysfs"
    case .identity: return "identity"
    }
  }
}

/// The sysfs attribute names that may hold a mount matrix, in order of preference.
package let sysfsMountMatrixAttributes = ["in_accel_mount_matrix", "mount_matrix", "in_mount_matrix"]

/// Parsing and checking of mount matrices written `x1, y1, z1; x2, y2, z2; x3, y3, z3`.
package enum MountMatrix {
  /// Parses a matrix; row i gives corrected axis i. Rejects a row of zeros.
  package static func parse(_ text: some StringProtocol) throws(ValueError) -> Matrix3 {
    let rows = text.trimmingSpaces.split(separator: ";", omittingEmptySubsequences: false)
    guard rows.count == 3 else {
      throw ValueError("expected 3 rows separated by ';', found \(rows.count) in '\(text)'")
    }
    var parsed: [Vector3] = []
    for (index, row) in rows.enumerated() {
      let cells = row.split(separator: ",", omittingEmptySubsequences: false)
      guard cells.count == 3 else {
        throw ValueError("row \(index + 1) has \(cells.count) values, expected 3, in '\(text)'")
      }
      var values: [Double] = []
      for cell in cells {
        guard let value = NumberParsing.finiteDouble(cell.trimmingSpaces) else {
          throw ValueError("row \(index + 1) has a bad number '\(cell.trimmingSpaces)'")
        }
        values.append(value)
      }
      let vector = Vector3(values[0], values[1], values[2])
      guard vector != .zero else { throw ValueError("row \(index + 1) is all zeros") }
      parsed.append(vector)
    }
    return Matrix3(rows: parsed[0], parsed[1], parsed[2])
  }

  /// Formats a matrix as systemd's hwdb entries write them: each value rounded to three
  /// decimals without trailing zeros (`0.707`, `1`, never `-0`), for matrices people copy.
  package static func formatRounded(_ matrix: Matrix3) -> String {
    func number(_ value: Double) -> String {
      var text = DecimalFormatting.fixed(value, decimals: 3)
      while text.contains("."), text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
      return text == "-0" ? "0" : text
    }
    return matrix.rows.map { row in
      "\(number(row.x)), \(number(row.y)), \(number(row.z))"
    }.joined(separator: "; ")
  }

  /// Formats a matrix in the same syntax it is parsed from, e.g. `0, 1, 0; -1, 0, 0; 0, 0, 1`.
  package static func format(_ matrix: Matrix3) -> String {
    func number(_ value: Double) -> String {
      if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
      return String(value)
    }
    return matrix.rows.map { row in
      "\(number(row.x)), \(number(row.y)), \(number(row.z))"
    }.joined(separator: "; ")
  }
}

/// A candidate matrix text and the source it came from.
package struct MountMatrixCandidate: Sendable {
  package var source: MountMatrixSource
  package var text: String

  /// Creates a candidate.
  package init(source: MountMatrixSource, text: String) {
    self.source = source
    self.text = text
  }
}

/// The outcome of choosing a mount matrix: the matrix, its source, and warnings to log.
package struct MountMatrixChoice: Sendable {
  package var matrix: Matrix3
  package var source: MountMatrixSource
  package var warnings: [String]

  /// Takes the first candidate that parses; every rejected one and a non-orthonormal result
  /// add a warning naming the source.
  package init(candidates: [MountMatrixCandidate]) {
    var warnings: [String] = []
    for candidate in candidates {
      do {
        let matrix = try MountMatrix.parse(candidate.text)
        if !matrix.isOrthonormal() {
          warnings.append(
            "mount matrix from \(candidate.source) is not orthonormal: \(MountMatrix.format(matrix))")
        }
        self.init(matrix: matrix, source: candidate.source, warnings: warnings)
        return
      } catch {
        warnings.append("ignoring mount matrix from \(candidate.source): \(error.message)")
      }
    }
    self.init(matrix: .identity, source: .identity, warnings: warnings)
  }

  private init(matrix: Matrix3, source: MountMatrixSource, warnings: [String]) {
    self.matrix = matrix
    self.source = source
    self.warnings = warnings
  }
}
