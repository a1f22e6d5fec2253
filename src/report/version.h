#ifndef TS_VERSION_H
#define TS_VERSION_H
#define TS_VERSION "0.1.0"
#endif
