import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import { ZMessage } from '@shared/schemas/output';
import {
  ZCreateRoomInput,
  ZListRoomsInput,
  ZRoom,
  ZRoomIdInput,
  ZRoomList,
  ZUpdateRoomInput,
} from '@shared/schemas/practitioners';
import * as service from './rooms.service';

/** docs/appointments.md#resources: staff read, admins change. */
export const roomsRouter = router({
  list: staffProcedure.input(ZListRoomsInput).output(ZRoomList).query(serve(service.listRooms)),
  get: staffProcedure.input(ZRoomIdInput).output(ZRoom).query(serveId(service.getRoom)),
  create: adminProcedure.input(ZCreateRoomInput).output(ZRoom).mutation(serve(service.createRoom)),
  update: adminProcedure.input(ZUpdateRoomInput).output(ZRoom).mutation(serve(service.updateRoom)),
  remove: adminProcedure.input(ZRoomIdInput).output(ZMessage).mutation(serveId(service.deleteRoom)),
});
