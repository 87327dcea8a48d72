// RAII wrappers over pinned and device buffers, std::vector data, async copies on one stream.
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>
#include "common.h"

namespace {

void check(aclError ret, const char *what) {
  if (ret != ACL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(ret));
}

class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes) : bytes_(bytes) { check(aclrtMallocHost(&ptr_, bytes), "aclrtMallocHost"); }
  ~PinnedBuffer() { aclrtFreeHost(ptr_); }
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &operator=(const PinnedBuffer &) = delete;
  template <typename T> T *as() { return static_cast<T *>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) { check(aclrtMalloc(&ptr_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc"); }
  ~DeviceBuffer() { aclrtFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_;
};

}  // namespace

int main() {
  try {
    check(aclInit(nullptr), "aclInit");
    check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream = nullptr;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    const size_t count = 1 << 18;
    {
      std::vector<float> input(count);
      std::iota(input.begin(), input.end(), 0.5f);
      PinnedBuffer staging(count * sizeof(float));
      std::memcpy(staging.as<float>(), input.data(), staging.bytes());
      DeviceBuffer device(staging.bytes());
      check(aclrtMemcpyAsync(device.get(), device.bytes(), staging.as<float>(), staging.bytes(), ACL_MEMCPY_HOST_TO_DEVICE, stream), "h2d");
      PinnedBuffer result(count * sizeof(float));
      std::memset(result.as<float>(), 0, result.bytes());
      check(aclrtMemcpyAsync(result.as<float>(), result.bytes(), device.get(), device.bytes(), ACL_MEMCPY_DEVICE_TO_HOST, stream), "d2h");
      check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
      std::vector<float> output(result.as<float>(), result.as<float>() + count);
      EXPECT(output == input);
    }
    check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    check(aclrtResetDevice(0), "aclrtResetDevice");
    check(aclFinalize(), "aclFinalize");
  } catch (const std::exception &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
  std::printf("pinned_async: PASS\n");
  return 0;
}
