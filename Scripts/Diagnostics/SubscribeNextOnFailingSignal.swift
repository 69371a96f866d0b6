// expect-error: 'subscribeNext' is unavailable: this signal can fail, and subscribeNext(_:) would drop the failure: add an 'error:' handler (subscribeNext(_:error:)), or replace the failure first with 'catch { _ in .empty }' or 'catch(to:)'
import AsyncSignals

struct APIError: Error {}

func show(_ results: [String]) {}

let search = Signal<[String], APIError>.return(["swift"])
_ = search.subscribeNext { show($0) }
