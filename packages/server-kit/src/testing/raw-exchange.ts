import { connect, type Socket } from 'node:net';

/**
 * Sends raw bytes to a listening server and resolves with everything it answers before closing:
 * for what `inject` cannot send (an unencoded ü on the request line, 20 KB of headers, a body
 * that stalls). `send` is the request's text, or writes it to the socket itself.
 */
export function rawExchange(port: number, send: string | ((socket: Socket) => void)): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => (typeof send === 'string' ? socket.write(send, 'utf8') : send(socket)));
  });
}
