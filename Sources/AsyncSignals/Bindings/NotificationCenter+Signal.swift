import Foundation

extension NotificationCenter {
  /// A signal of what `transform` extracts from each notification named `name` (any, if `nil`) posted by
  /// `object` (anyone, if `nil`).
  ///
  /// Each subscription adds an observer to the notification center and removes it when disposed. `transform`
  /// runs on the thread that posts the notification, while it is being posted, and its result is delivered
  /// there; it is how the notification's contents travel, since `Notification` is not `Sendable`. The signal
  /// never fails; it completes only when `object`, held weakly, has gone away by the time of a subscription
  /// (it can post nothing more).
  ///
  /// ```swift
  /// let keyboardHeights = NotificationCenter.default.signal(forName: keyboardWillShow) { notification in
  ///   (notification.userInfo?["height"] as? Double) ?? 0
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name to observe, or `nil` for all.
  ///   - object: The sender to observe, or `nil` for all; held weakly.
  ///   - transform: Extracts the value to send from a notification.
  /// - Returns: A cold signal of the extracted values.
  /// - Note: ReactiveCocoa 2.5 `-rac_addObserverForName:object:` (NSNotificationCenter+RACSupport), which sent
  ///   the `NSNotification` itself, held `object` unretained and never completed.
  public func signal<Value: Sendable>(
    forName name: Notification.Name?, object: (any AnyObject & Sendable)? = nil,
    _ transform: @escaping @Sendable (Notification) -> Value
  ) -> Signal<Value, Never> {
    let center = self
    let observesObject = object != nil
    return Signal.create { [weak object] subscriber in
      if observesObject && object == nil {
        subscriber.sendCompleted()
        return nil
      }
      let observer = NotificationObserver(
        center.addObserver(forName: name, object: object, queue: nil) { subscriber.sendNext(transform($0)) })
      return ActionDisposable {
        if let token = observer.take() { center.removeObserver(token) }
      }
    }
  }

  /// A signal of the names of the notifications named `name` (any, if `nil`) posted by `object` (anyone, if
  /// `nil`): one value per notification.
  ///
  /// As ``signal(forName:object:_:)``, for when the fact of the notification is enough.
  ///
  /// ```swift
  /// NotificationCenter.default.signal(forName: .NSSystemTimeZoneDidChange)
  ///   .subscribeNext { _ in refreshTimestamps() }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The notification name to observe, or `nil` for all.
  ///   - object: The sender to observe, or `nil` for all; held weakly.
  /// - Returns: A cold signal of notification names.
  /// - Note: ReactiveCocoa 2.5 `-rac_addObserverForName:object:`.
  public func signal(
    forName name: Notification.Name?, object: (any AnyObject & Sendable)? = nil
  ) -> Signal<Notification.Name, Never> {
    signal(forName: name, object: object) { $0.name }
  }
}

/// The token of a block-based notification observer, taken once to remove it.
private final class NotificationObserver: @unchecked Sendable {
  // guarded by: `token`, a `LockedState`; the token is only handed back to `NotificationCenter.removeObserver`,
  // which is thread-safe.
  private let token: LockedState<(any NSObjectProtocol)?>

  init(_ token: any NSObjectProtocol) {
    self.token = LockedState(token)
  }

  func take() -> (any NSObjectProtocol)? {
    token.withLock { token in
      defer { token = nil }
      return token
    }
  }
}
