// Two host threads, each with its own context, stream and event; each copies its own data and
// checks it. The contexts are created on the main thread and made current in the workers.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>
#include "common.h"

namespace {

struct Worker {
  aclrtContext context = nullptr;
  aclrtStream stream = nullptr;
  aclrtEvent done = nullptr;
  bool ok = false;
};

void work(Worker &w, uint8_t seed) {
  CHECK_ACL(aclrtSetCurrentContext(w.context));
  CHECK_ACL(aclrtCreateStream(&w.stream));
  CHECK_ACL(aclrtCreateEvent(&w.done));
  const size_t n = 64 * 1024;
  std::vector<uint8_t> in(n), out(n, 0);
  for (size_t i = 0; i < n; i++) in[i] = static_cast<uint8_t>(seed + i);
  void *dev = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_NORMAL_ONLY));
  for (int round = 0; round < 20; round++) {
    CHECK_ACL(aclrtMemcpyAsync(dev, n, in.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, w.stream));
    CHECK_ACL(aclrtMemcpyAsync(out.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, w.stream));
    CHECK_ACL(aclrtRecordEvent(w.done, w.stream));
    CHECK_ACL(aclrtSynchronizeEvent(w.done));
  }
  aclrtContext current = nullptr;
  CHECK_ACL(aclrtGetCurrentContext(&current));
  EXPECT(current == w.context);
  w.ok = out == in;
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtDestroyEvent(w.done));
  CHECK_ACL(aclrtDestroyStream(w.stream));
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  Worker workers[2];
  for (auto &w : workers) CHECK_ACL(aclrtCreateContext(&w.context, 0));
  std::thread a(work, std::ref(workers[0]), 1);
  std::thread b(work, std::ref(workers[1]), 100);
  a.join();
  b.join();
  for (auto &w : workers) {
    EXPECT(w.ok);
    CHECK_ACL(aclrtDestroyContext(w.context));
  }
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("two_threads: PASS\n");
  return 0;
}
