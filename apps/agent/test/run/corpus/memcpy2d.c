/* A pitched image on the device: rows copied in with aclrtMemcpy2d, a column band read back (CP-9). */
#include <string.h>
#include "common.h"

enum { WIDTH = 300, HEIGHT = 64, DPITCH = 512 };

int main(void) {
  static unsigned char image[HEIGHT][WIDTH], band[HEIGHT][100];
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) image[y][x] = (unsigned char)(x ^ (y * 3));
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  void *dev = NULL;
  CHECK_ACL(aclrtMalloc(&dev, (size_t)DPITCH * HEIGHT, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemset(dev, (size_t)DPITCH * HEIGHT, 0, (size_t)DPITCH * HEIGHT));
  CHECK_ACL(aclrtMemcpy2d(dev, DPITCH, image, WIDTH, WIDTH, HEIGHT, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy2d(band, 100, (char *)dev + 50, DPITCH, 100, HEIGHT, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int y = 0; y < HEIGHT; y++) EXPECT(memcmp(band[y], &image[y][50], 100) == 0);
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *copy = NULL;
  CHECK_ACL(aclrtMalloc(&copy, (size_t)DPITCH * HEIGHT, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemcpy2dAsync(copy, DPITCH, dev, DPITCH, WIDTH, HEIGHT, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  static unsigned char row[WIDTH];
  CHECK_ACL(aclrtMemcpy(row, WIDTH, (char *)copy + 10 * DPITCH, WIDTH, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT(memcmp(row, image[10], WIDTH) == 0);
  CHECK_ACL(aclrtFree(copy));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("memcpy2d: PASS\n");
  return 0;
}
