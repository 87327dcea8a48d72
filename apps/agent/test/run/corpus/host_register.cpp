// Registers the program's own page-aligned buffer (HM-5), gets its device pointer, and copies
// through the registered memory, which now counts as pinned.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "common.h"

namespace {

template <typename T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <typename U> PageAllocator(const PageAllocator<U> &) {}
  T *allocate(size_t n) {
    void *p = nullptr;
    if (posix_memalign(&p, 4096, ((n * sizeof(T) + 4095) / 4096) * 4096) != 0) throw std::bad_alloc();
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) { std::free(p); }
  bool operator==(const PageAllocator &) const { return true; }
  bool operator!=(const PageAllocator &) const { return false; }
};

class Registration {
 public:
  Registration(void *ptr, size_t bytes) : ptr_(ptr) {
    CHECK_ACL(aclrtHostRegisterV2(ptr, bytes, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED));
  }
  ~Registration() { CHECK_ACL(aclrtHostUnregister(ptr_)); }
  void *devicePointer() const {
    void *dev = nullptr;
    CHECK_ACL(aclrtHostGetDevicePointer(ptr_, &dev, 0));
    return dev;
  }

 private:
  void *ptr_;
};

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  const size_t n = 256 * 1024;
  std::vector<uint32_t, PageAllocator<uint32_t>> data(n);
  for (size_t i = 0; i < n; i++) data[i] = static_cast<uint32_t>(i * 2654435761u);
  const size_t bytes = n * sizeof(uint32_t);
  void *dev = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  {
    Registration registration(data.data(), bytes);
    EXPECT(registration.devicePointer() != nullptr);
    CHECK_ACL(aclrtMemcpyAsync(dev, bytes, data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    std::vector<uint32_t, PageAllocator<uint32_t>> expected(data);
    std::memset(data.data(), 0, bytes);
    CHECK_ACL(aclrtMemcpyAsync(data.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    EXPECT(data == expected);
  }
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("host_register: PASS\n");
  return 0;
}
