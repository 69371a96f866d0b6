extension Signal {
  /// Splits the values into groups by key: sends a ``GroupedSignal`` the first time a key is seen, and routes
  /// each (transformed) value to its group.
  ///
  /// The value is sent to its group right after the group itself has been sent, so a subscriber that subscribes
  /// to the group from its callback receives that first value. When the source fails or completes, the result
  /// receives the terminal event first, then every group, in the order the groups were created. Disposing the
  /// result disposes the source; the groups then receive nothing more and are not terminated, as in RAC.
  ///
  /// ```swift
  /// let byParity = numbers.groupBy({ $0 % 2 == 0 }, transform: { "\($0)" })
  /// byParity.subscribeNext { group in
  ///   group.subscribeNext { print(group.key ? "even" : "odd", $0) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: Gives each value's key.
  ///   - transform: Gives what is sent to the group for each value.
  /// - Returns: A signal of groups.
  /// - Note: ReactiveCocoa 2.5 `-groupBy:transform:`.
  public func groupBy<Key: Hashable & Sendable, NewValue: Sendable>(
    _ key: @escaping @Sendable (Value) -> Key, transform: @escaping @Sendable (Value) -> NewValue
  ) -> Signal<GroupedSignal<Key, NewValue, Failure>, Failure> {
    typealias Group = GroupedSignal<Key, NewValue, Failure>
    return AnonymousSignal { observer in
      // Touched only by the source's observer, which is called serially.
      let groups = ObserverState((byKey: [Key: Group](), ordered: [Group]()))
      return self.attach { event in
        switch event {
        case .next(let value):
          let groupKey = key(value)
          var flow = Flow.proceed
          let group: Group
          if let existing = groups.value.byKey[groupKey] {
            group = existing
          } else {
            group = Group(key: groupKey)
            groups.value.byKey[groupKey] = group
            groups.value.ordered.append(group)
            flow = observer(.next(group))
          }
          group.sendNext(transform(value))
          return flow
        case .error(let error):
          _ = observer(.error(error))
          for group in groups.value.ordered { group.sendError(error) }
          groups.value = ([:], [])
          return .stop
        case .completed:
          _ = observer(.completed)
          for group in groups.value.ordered { group.sendCompleted() }
          groups.value = ([:], [])
          return .stop
        }
      }
    }
  }

  /// Splits the values into groups by key: ``groupBy(_:transform:)`` without a transform.
  ///
  /// ```swift
  /// let byLength = words.groupBy { $0.count }
  /// ```
  ///
  /// - Parameter key: Gives each value's key.
  /// - Returns: A signal of groups of the values.
  /// - Note: ReactiveCocoa 2.5 `-groupBy:`.
  public func groupBy<Key: Hashable & Sendable>(
    _ key: @escaping @Sendable (Value) -> Key
  ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
    groupBy(key, transform: { $0 })
  }
}
