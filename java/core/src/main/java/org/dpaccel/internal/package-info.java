/**
 * Native loading, platform names and the JNI declarations. Not exported by the module and not
 * an API: it may change in any release.
 */
package org.dpaccel.internal;
