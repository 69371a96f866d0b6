import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// Where a command's state signals and executions run when no scheduler is given, and its synchronous reads.
@Suite("Command: default scheduler and synchronous state")
struct CommandDefaultSchedulerTests {
  @Test("made off the main actor (a plain test, no running main queue needed), a command executes and reports")
  func worksOffTheMainActor() async {
    let command = Command<Int, Int, TestError> { input in .return(input * 2) }
    let executing = Locked<[Bool]>([])
    let scheduler = Locked<(any Scheduler)?>(nil)
    command.executing.subscribeNext { isExecuting in
      if isExecuting { scheduler.value = Schedulers.current }
      executing.append(isExecuting)
    }
    let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
      command.execute(21).subscribeNext(
        { continuation.resume(returning: $0) }, error: { _ in continuation.resume(returning: nil) })
    }
    #expect(value == 42)
    #expect(scheduler.value is QueueScheduler)
    #expect(scheduler.value !== QueueScheduler.main)
    // `executing` went true before the work started, on the command's own queue.
    #expect(executing.value.prefix(2) == [false, true])
  }

  @Test("made in an actor, a command executes there too")
  func worksInAnActor() async {
    actor Owner {
      let command = Command<Void, String, Never> { .return("done") }
      func run() async -> String? {
        await withCheckedContinuation { continuation in
          command.execute().subscribeNext({ continuation.resume(returning: $0) }, error: { _ in })
        }
      }
    }
    #expect(await Owner().run() == "done")
  }

  @Test("made on the main actor, a command uses the main queue, as RAC does")
  @MainActor
  func mainActorUsesMainQueue() async {
    let command = Command<Void, Int, Never> { .return(1) }
    let scheduler = await withCheckedContinuation { (continuation: CheckedContinuation<(any Scheduler)?, Never>) in
      command.execute().subscribeNext({ _ in continuation.resume(returning: Schedulers.current) }, error: { _ in })
    }
    #expect(scheduler === QueueScheduler.main)
  }

  @Test("isEnabled and isExecuting read the command's state at once, ahead of its signals")
  func synchronousReads() {
    let scheduler = TestScheduler()
    let command = Command<Int, Int, TestError>(scheduler: scheduler) { input in
      Signal.create { subscriber in
        scheduler.schedule(afterDelay: .seconds(1)) {
          subscriber.sendNext(input)
          subscriber.sendCompleted()
        }
      }
    }
    let executing = EventRecorder(command.executing)
    #expect(command.isEnabled && !command.isExecuting)
    _ = command.execute(1)
    #expect(!command.isEnabled && command.isExecuting)
    #expect(executing.values == [false])  // the signal delivers on the scheduler, later
    scheduler.advance(by: .seconds(1))
    #expect(command.isEnabled && !command.isExecuting)
    #expect(executing.values == [false, true, false])
  }

  @Test("isEnabled follows the enabled input at once")
  func isEnabledFollowsInput() {
    let input = Subject<Bool, Never>()
    let command = Command<Void, Void, Never>(enabled: input, scheduler: TestScheduler()) { .empty }
    #expect(command.isEnabled)
    input.sendNext(false)
    #expect(!command.isEnabled)
    input.sendNext(true)
    #expect(command.isEnabled)
  }
}
