// Events between two streams: a producer stream, a consumer that waits on its event, elapsed time.
#include <cstdio>
#include <vector>
#include "common.h"

namespace {

struct Stream {
  aclrtStream handle = nullptr;
  Stream() { CHECK_ACL(aclrtCreateStream(&handle)); }
  ~Stream() { CHECK_ACL(aclrtDestroyStream(handle)); }
};

struct Event {
  aclrtEvent handle = nullptr;
  explicit Event(uint32_t flags) { CHECK_ACL(aclrtCreateEventWithFlag(&handle, flags)); }
  ~Event() { CHECK_ACL(aclrtDestroyEvent(handle)); }
};

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  {
    Stream producer, consumer;
    Event start(ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), stop(ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC);
    const size_t n = 8 * 1024 * 1024;
    void *host = nullptr, *a = nullptr, *b = nullptr;
    CHECK_ACL(aclrtMallocHost(&host, n));
    std::vector<unsigned char> expected(n);
    for (size_t i = 0; i < n; i++) expected[i] = static_cast<unsigned char>(i % 251);
    std::copy(expected.begin(), expected.end(), static_cast<unsigned char *>(host));
    CHECK_ACL(aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_ACL(aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_ACL(aclrtRecordEvent(start.handle, producer.handle));
    CHECK_ACL(aclrtMemcpyAsync(a, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, producer.handle));
    CHECK_ACL(aclrtRecordEvent(stop.handle, producer.handle));
    CHECK_ACL(aclrtStreamWaitEvent(consumer.handle, stop.handle));
    CHECK_ACL(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer.handle));
    CHECK_ACL(aclrtSynchronizeStream(consumer.handle));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(stop.handle, &status));
    EXPECT(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    float ms = -1.0f;
    CHECK_ACL(aclrtEventElapsedTime(&ms, start.handle, stop.handle));
    EXPECT(ms > 0.0f);
    std::vector<unsigned char> back(n);
    CHECK_ACL(aclrtMemcpy(back.data(), n, b, n, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(back == expected);
    std::printf("8 MiB H2D took %.3f ms (simulated)\n", ms);
    CHECK_ACL(aclrtFree(a));
    CHECK_ACL(aclrtFree(b));
    CHECK_ACL(aclrtFreeHost(host));
  }
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("events_timing: PASS\n");
  return 0;
}
