// The interrupt controller: INTR_STATUS (RW1C) and INTR_ENABLE, and the thread that
// delivers interrupts to the KMD's handler.
//
// raise() sets status bits; whenever status & enable gains a bit (by raise() or by
// enabling a pending bit) the delivery thread calls the handler once, with no lock of
// the GPU held, so the handler may read and write any register. Deliveries coalesce:
// several raises before the handler runs produce one call. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace strata::hw::sim {

class Interrupts {
 public:
  Interrupts();
  ~Interrupts();  // joins the delivery thread; the handler is not called afterwards

  void raise(uint32_t bits);
  uint32_t status() const;
  void clear(uint32_t bits);  // write-1-to-clear
  uint32_t enable() const;
  void set_enable(uint32_t mask);
  void set_handler(std::function<void()> handler);

 private:
  void deliver_loop();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint32_t status_ = 0;
  uint32_t enable_ = 0;
  bool pending_ = false;  // an enabled bit was gained since the last delivery
  bool stop_ = false;
  std::function<void()> handler_;
  std::thread thread_;
};

}  // namespace strata::hw::sim
