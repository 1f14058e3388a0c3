// exit_safe_thread_local<T, Tag>(): a per-thread T that stays usable after the thread's
// thread_local destructors have run.
//
// At process exit the main thread's thread_local objects are destroyed BEFORE static
// destructors and atexit handlers run, and CUDA programs call the API from static
// destructors (CUDA allows that). A plain thread_local std::vector would then be used
// after its destruction. Here the per-thread slot is trivially destructible (so it stays
// valid for the thread's whole life); a separate owner frees the T when the thread's
// thread_locals are destroyed and empties the slot. A use after that gets a fresh,
// default-constructed T, which is leaked (this happens only during exit). `Tag` makes
// each use site its own variable. Not for objects whose destructor has side effects
// that must run on that thread.
#pragma once

namespace strata {

template <typename T, typename Tag>
T& exit_safe_thread_local() {
  struct Slot {
    T* value = nullptr;
    bool owner_gone = false;
  };
  struct Owner {
    Slot* slot;
    ~Owner() {
      delete slot->value;
      slot->value = nullptr;
      slot->owner_gone = true;
    }
  };
  thread_local Slot slot;  // trivially destructible: valid until the thread ends
  if (slot.value != nullptr) return *slot.value;
  slot.value = new T();
  if (!slot.owner_gone) {
    thread_local Owner owner{&slot};  // constructed (and registered) once per thread
    (void)owner;
  }
  return *slot.value;
}

}  // namespace strata
