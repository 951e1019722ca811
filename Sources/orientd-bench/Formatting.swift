import OrientCore
import OrientSystem

/// Number formatting for the results table.
enum DecimalFormattingBench {
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    DecimalFormatting.fixed(value, decimals: decimals)
  }

  /// `52.3M` style.
  static func millions(_ value: Double) -> String { fixed(value / 1e6, 1) + "M" }
}

/// Monotonic nanoseconds.
func clockNanoseconds() -> UInt64 { Clock.monotonicNanoseconds }
