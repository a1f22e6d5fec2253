#ifndef TS_VERSION_H
#define TS_VERSION_H
#define TS_VERSION "0.2.0"
#endif
