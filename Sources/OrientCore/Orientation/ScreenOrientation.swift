/// One of the four ways a screen can be drawn, in clockwise order.
package enum ScreenOrientation: UInt8, CaseIterable, Sendable {
  case normal
  case leftUp
  case bottomUp
  case rightUp

  /// The protocol name, e.g. `bottom-up`.
  package var name: String { device.name }

  /// Looks an orientation up by its protocol name.
  package init?(name: some StringProtocol) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// The device orientation with the same name.
  package var device: DeviceOrientation {
    switch self {
    case .normal: return .normal
    case .leftUp: return .leftUp
    case .bottomUp: return .bottomUp
    case .rightUp: return .rightUp
    }
  }

  /// The next orientation when the device turns clockwise.
  package var clockwise: ScreenOrientation {
    ScreenOrientation(rawValue: (rawValue + 1) % 4)!
  }

  /// The next orientation when the device turns counter-clockwise.
  var counterClockwise: ScreenOrientation {
    ScreenOrientation(rawValue: (rawValue + 3) % 4)!
  }
}

/// The name of an optional screen orientation, `undefined` for nil.
package func orientationName(_ orientation: ScreenOrientation?) -> String {
  orientation?.name ?? "undefined"
}
