import Glibc

/// A three-component vector, used for accelerations in g.
package struct Vector3: Equatable, Sendable {
  package var x: Double
  package var y: Double
  package var z: Double

  /// Creates a vector from its three components.
  @inlinable
  package init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The zero vector.
  package static let zero = Vector3(0, 0, 0)

  /// The dot product with another vector.
  @inlinable
  package func dot(_ other: Vector3) -> Double {
    x * other.x + y * other.y + z * other.z
  }

  /// The squared Euclidean length; cheaper than `magnitude` when only comparing.
  @inlinable
  var magnitudeSquared: Double { dot(self) }

  /// The Euclidean length.
  @inlinable
  package var magnitude: Double { magnitudeSquared.squareRoot() }

  /// The component at `index` (0: x, 1: y, 2: z).
  @inlinable
  package subscript(index: Int) -> Double {
    switch index {
    case 0: return x
    case 1: return y
    default: return z
    }
  }

  /// True when every component is a finite number.
  @inlinable
  package var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension Vector3 {
  /// The vector scaled to length 1 (zero stays zero).
  var normalized: Vector3 {
    let length = magnitude
    return length > 0 ? Vector3(x / length, y / length, z / length) : self
  }

  /// The angle to another vector, in degrees.
  package func angle(to other: Vector3) -> Double {
    let cosine = max(-1, min(1, normalized.dot(other.normalized)))
    return acosDegrees(cosine)
  }
}

/// acos in degrees, clamped to [0, 180].
func acosDegrees(_ cosine: Double) -> Double {
  Glibc.acos(max(-1, min(1, cosine))) * 180 / Double.pi
}
