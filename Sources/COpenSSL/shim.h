// OpenSSL's libcrypto, for SHA-256 digests of the photo library's stored files.
#ifndef OPENCAPTURE_COPENSSL_SHIM_H
#define OPENCAPTURE_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/sha.h>
#endif
